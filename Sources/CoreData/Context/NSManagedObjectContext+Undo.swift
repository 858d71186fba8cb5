/// Undo support: with an undo manager set, each `processPendingChanges()` registers the
/// changes since the previous one (attribute and relationship edits, inserts, deletes) as one
/// undo operation; undoing it registers the redo.
extension NSManagedObjectContext {
    /// The undo manager that records this context's changes; nil (the default, as on Apple
    /// platforms) records nothing and costs nothing.
    ///
    /// For example:
    /// ```swift
    /// context.undoManager = UndoManager()
    /// person.name = "Grace"
    /// context.processPendingChanges()
    /// context.undo()   // person.name is back to what it was
    /// ```
    public var undoManager: UndoManager? {
        get { undoRecording?.manager }
        set {
            guard newValue !== undoRecording?.manager else { return }
            undoRecording = newValue.map { UndoRecording(manager: $0, context: self) }
        }
    }

    /// Undoes the latest undo group of the undo manager: by default the changes made between
    /// the last two `processPendingChanges()` calls (pending changes are processed first).
    public func undo() {
        performAndWait { undoManager?.undo() }
    }

    /// Re-applies the latest undone group.
    public func redo() {
        performAndWait { undoManager?.redo() }
    }

    /// Runs `body` without recording undo steps: what the context does while it saves,
    /// merges and awakes fetched objects, whose changes are not the user's edits.
    func withoutUndoRegistration<T>(_ body: () throws -> T) rethrows -> T {
        guard let undoRecording else { return try body() }
        return try undoRecording.suspended(body)
    }

    /// Whether `object` is in this context and not deleted: what an undo step's insertions and
    /// deletions change.
    func isAlive(_ object: NSManagedObject) -> Bool {
        object.managedObjectContext === self && !object.deletedFlag
    }

    /// Puts back the state `step` recorded: values first, with raw writes (every object whose
    /// relationship changed, on either side, is in the step), then insertions and deletions.
    /// The writes pass the usual change hooks, so the step that reverses this one is recorded
    /// and, registered while the manager undoes, becomes the redo.
    func revert(_ step: UndoStep) {
        for before in step.objects.values {
            let object = before.object
            object.fireFaultIfNeeded()
            for (ordinal, slot) in before.slots {
                let key = object.propertyIndex.properties[ordinal].name
                object.willChangeStoredValue(forKey: key)
                if case .object(let destination)? = slot {
                    object.values[ordinal: ordinal] = object.toOneSlot(for: destination)
                } else {
                    object.values[ordinal: ordinal] = slot
                }
                object.noteChange(key)
                if undoRecording?.isDirty(ordinal, restoredFrom: before, of: step) == false { object.changedKeys.remove(key) }
            }
        }
        for before in step.objects.values where before.wasAlive != isAlive(before.object) {
            if before.wasAlive { revive(before.object) } else { delete(before.object) }
        }
        processPendingChanges()
    }
}
