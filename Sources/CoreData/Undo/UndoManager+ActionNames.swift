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

    /// The name of the group `undo()` would undo; empty when unnamed or there is none.
    public var undoActionName: String { groupToUndo?.actionName ?? "" }

    /// The name of the group `redo()` would redo; empty when unnamed or there is none.
    public var redoActionName: String { redoStack.last?.actionName ?? "" }

    /// The Undo menu item's title, such as "Undo Rename".
    public var undoMenuItemTitle: String { undoMenuTitle(forUndoActionName: undoActionName) }

    /// The Redo menu item's title, such as "Redo Rename".
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

    /// Whether the group `undo()` would undo was marked discardable.
    public var undoActionIsDiscardable: Bool { groupToUndo?.isDiscardable ?? false }

    /// Whether the group `redo()` would redo was marked discardable.
    public var redoActionIsDiscardable: Bool { redoStack.last?.isDiscardable ?? false }
}
