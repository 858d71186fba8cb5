/// One registered undo operation: the closure and the object it acts on.
///
/// The target is held weakly, as Apple's manager holds it unowned, so registering never keeps
/// an object alive; an operation whose target is gone is skipped.
struct UndoAction {
    private weak var target: AnyObject?
    let targetID: ObjectIdentifier
    private let handler: (AnyObject) -> Void

    init<Target: AnyObject>(target: Target, handler: @escaping (Target) -> Void) {
        self.target = target
        targetID = ObjectIdentifier(target)
        // The target was registered as `Target`, so the downcast cannot fail.
        self.handler = { handler($0 as! Target) }
    }

    var isOrphaned: Bool { target == nil }

    func perform() {
        if let target { handler(target) }
    }
}

/// A group of undo operations undone together, possibly holding nested groups, with the name
/// an Undo menu item shows for it.
final class UndoGroup {
    enum Entry {
        case action(UndoAction)
        case group(UndoGroup)
    }

    var entries: [Entry] = []
    var actionName = ""
    var isDiscardable = false

    init(actionName: String = "", isDiscardable: Bool = false) {
        self.actionName = actionName
        self.isDiscardable = isDiscardable
    }

    var isEmpty: Bool { entries.isEmpty }

    /// Runs the operations last-registered first, nested groups likewise, so that each one
    /// meets the state the operations after it left.
    func performInReverse() {
        for entry in entries.reversed() {
            switch entry {
            case .action(let action): action.perform()
            case .group(let group): group.performInReverse()
            }
        }
    }

    /// Drops the operations on `targetID` (and those whose target is gone), and nested groups
    /// left empty by that.
    func removeActions(withTarget targetID: ObjectIdentifier) {
        entries.removeAll { entry in
            switch entry {
            case .action(let action):
                return action.targetID == targetID || action.isOrphaned
            case .group(let group):
                group.removeActions(withTarget: targetID)
                return group.isEmpty
            }
        }
    }
}
