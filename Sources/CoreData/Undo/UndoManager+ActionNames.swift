/// What an Undo or Redo menu item shows, and which groups may be discarded.
extension UndoManager {
    /// The group `setActionName(_:)` and `setActionIsDiscardable(_:)` describe: the one being
    /// collected while undoing or redoing, else the open top-level group, else the last
    /// closed one.
    private var describedGroup: UndoGroup? {
        openGroups.first ?? undoStack.last
    }

    /// Names the current undo group ("Rename", "Delete Person"), shown by the menu titles.
    public func setActionName(_ actionName: String) {
        describedGroup?.actionName = actionName
    }

    public var undoActionName: String { groupToUndo?.actionName ?? "" }

    public var redoActionName: String { redoStack.last?.actionName ?? "" }

    public var undoMenuItemTitle: String { undoMenuTitle(forUndoActionName: undoActionName) }

    public var redoMenuItemTitle: String { redoMenuTitle(forUndoActionName: redoActionName) }

    /// "Undo" followed by the action name, or "Undo" alone for an unnamed action.
    public func undoMenuTitle(forUndoActionName actionName: String) -> String {
        actionName.isEmpty ? "Undo" : "Undo \(actionName)"
    }

    /// "Redo" followed by the action name, or "Redo" alone for an unnamed action.
    public func redoMenuTitle(forUndoActionName actionName: String) -> String {
        actionName.isEmpty ? "Redo" : "Redo \(actionName)"
    }

    /// Marks the current undo group as one that may be discarded (a selection change, say)
    /// when memory is short; `NSUndoManagerDidCloseUndoGroup` reports it.
    public func setActionIsDiscardable(_ discardable: Bool) {
        describedGroup?.isDiscardable = discardable
    }

    public var undoActionIsDiscardable: Bool { groupToUndo?.isDiscardable ?? false }

    public var redoActionIsDiscardable: Bool { redoStack.last?.isDiscardable ?? false }
}
