import Logging

/// Calls Apple's undo manager answers with `NSInternalInconsistencyException`, ending the
/// process. Ours keep Apple's non-throwing signatures (so call sites port unchanged), change
/// nothing, and log the mistake as an error under the `CoreData.UndoManager` label.
enum UndoManagerMisuse: Error, CustomStringConvertible {
    case undoWithNestedGroupOpen(level: Int)
    case redoWithNestedGroupOpen(level: Int)
    case endWithoutBegin
    case registrationOutsideGroup
    case enableWithoutDisable
    case noClosedNestedGroup
    case reentrantUndoOrRedo(String)

    var description: String {
        switch self {
        case .undoWithNestedGroupOpen(let level):
            "undo() called with \(level) undo groups open; close nested groups with endUndoGrouping() first, or use undoNestedGroup()"
        case .redoWithNestedGroupOpen(let level):
            "redo() called with \(level) undo groups open; close them with endUndoGrouping() first"
        case .endWithoutBegin:
            "endUndoGrouping() called with no undo group open"
        case .registrationOutsideGroup:
            "an undo operation was registered with groupsByEvent off and no undo group open; call beginUndoGrouping() first (the operation was dropped)"
        case .enableWithoutDisable:
            "enableUndoRegistration() called more often than disableUndoRegistration()"
        case .noClosedNestedGroup:
            "undoNestedGroup() called while the open undo group ends in operations, not in a closed nested group"
        case .reentrantUndoOrRedo(let call):
            "\(call) called while an undo or redo is already running"
        }
    }

    private static let logger = Logger(label: "CoreData.UndoManager")

    func report() {
        Self.logger.error("UndoManager: \(description)")
    }
}
