/// What a context's undo support keeps between two `processPendingChanges()` calls: for each
/// object the current undo step touched, whether it was alive (in the context, not deleted)
/// and the values its changed properties had, taken just before their first change.
///
/// Those are exactly what putting the step back needs. Taking them as the changes happen,
/// rather than diffing snapshots at the end of the step, costs one dictionary look-up per
/// change and nothing for objects the step never touches.
struct UndoStep {
    struct Before {
        let object: NSManagedObject
        let wasAlive: Bool
        /// Values by property ordinal; to-many members copied, since their list changes in place;
        /// to-one destinations as objects, since a save may give them new IDs before the undo.
        var slots: [Int: ObjectValues.Slot?] = [:]
        /// The ordinals that were unsaved changes then.
        var dirtyOrdinals: Set<Int> = []
    }

    var objects: [ObjectIdentifier: Before] = [:]
    /// The recording's save count when the step began: after a save, "was unsaved" no longer
    /// says whether the restored value differs from the store.
    let saveCount: Int
}

/// A context's link to its undo manager: it records each undo step as the context's objects
/// change and registers it with the manager when the context processes its pending changes,
/// and it processes them when the manager posts a checkpoint (before undo, redo and grouping).
///
/// Used on its context's queue only; the checkpoint observer checks it is there, so the type
/// is `@unchecked Sendable` for that observer's sake.
final class UndoRecording: @unchecked Sendable {
    let manager: UndoManager
    private weak var context: NSManagedObjectContext?
    private var step = UndoStep(saveCount: 0)
    private var suspensions = 0
    private var saveCount = 0
    /// Set while a step is registered: registering opens and closes groups, which post the
    /// checkpoints this recording answers.
    private var isClosingStep = false
    /// Set while answering a checkpoint: the manager is in the middle of opening or closing a
    /// group or undoing, so the step is registered without closing the group.
    private var isAnsweringCheckpoint = false
    private var checkpointObserver: NSObjectProtocol?

    init(manager: UndoManager, context: NSManagedObjectContext) {
        self.manager = manager
        self.context = context
        checkpointObserver = NotificationCenter.default.addObserver(forName: .NSUndoManagerCheckpoint, object: manager, queue: nil) { [weak self] _ in
            self?.answerCheckpoint()
        }
    }

    deinit {
        if let checkpointObserver { NotificationCenter.default.removeObserver(checkpointObserver) }
    }

    private var isRecording: Bool { suspensions == 0 && manager.isUndoRegistrationEnabled }

    // MARK: Recording

    /// Keeps `key`'s current value if this is its first change in the step.
    func objectWillChange(_ object: NSManagedObject, key: String) {
        guard isRecording, let ordinal = object.propertyIndex.ordinals[key] else { return }
        let id = ObjectIdentifier(object)
        if step.objects[id] == nil { step.objects[id] = before(object) }
        guard step.objects[id]?.slots.index(forKey: ordinal) == nil else { return }
        var slot = object.values[ordinal: ordinal]
        switch slot {
        case .members(let members)?: slot = .members(ToManyMembers(members.objects))
        case .stored(.objectID)? where object.propertyIndex.properties[ordinal] is NSRelationshipDescription:
            slot = object.destination(in: slot).map { .object($0) }
        default: break
        }
        step.objects[id]?.slots[ordinal] = slot
        if object.changedKeys.contains(key) { step.objects[id]?.dirtyOrdinals.insert(ordinal) }
    }

    /// Notes whether `object` was alive before the step inserts, deletes or revives it.
    func objectWillChangeMembership(_ object: NSManagedObject) {
        guard isRecording, step.objects[ObjectIdentifier(object)] == nil else { return }
        step.objects[ObjectIdentifier(object)] = before(object)
    }

    private func before(_ object: NSManagedObject) -> UndoStep.Before {
        UndoStep.Before(object: object, wasAlive: context?.isAlive(object) ?? false)
    }

    /// Whether a value restored from `step` is an unsaved change: as it was then, unless a
    /// save came in between (then it differs from what the store now holds).
    func isDirty(_ ordinal: Int, restoredFrom before: UndoStep.Before, of step: UndoStep) -> Bool {
        step.saveCount != saveCount || before.dirtyOrdinals.contains(ordinal)
    }

    func noteSaved() {
        saveCount += 1
    }

    /// Runs `body` without recording: saving, merging, awaking fetched objects.
    func suspended<T>(_ body: () throws -> T) rethrows -> T {
        suspensions += 1
        defer { suspensions -= 1 }
        return try body()
    }

    // MARK: Registering

    /// Registers the step's changes as one undo operation and ends the manager's automatic
    /// group: the end of an event, as Apple's context registers its changes in
    /// `processPendingChanges()`.
    func closeStep() {
        guard !isClosingStep, let context else { return }
        isClosingStep = true
        defer { isClosingStep = false }
        var closed = step
        step = UndoStep(saveCount: saveCount)
        // Objects born and gone within the step, and objects a step deleted and revived
        // without other change, need nothing put back.
        closed.objects = closed.objects.filter { _, before in
            before.wasAlive ? !(context.isAlive(before.object) && before.slots.isEmpty) : context.isAlive(before.object)
        }
        if !closed.objects.isEmpty, isRecording {
            manager.registerUndo(withTarget: context) { $0.revert(closed) }
        }
        if !isAnsweringCheckpoint { manager.endAutomaticGrouping() }
    }

    /// Forgets the step in progress, with the manager's operations: rollback and reset.
    func discardAll() {
        step = UndoStep(saveCount: saveCount)
        manager.removeAllActions()
    }

    private func answerCheckpoint() {
        guard !isClosingStep, let context, context.isOnQueue else { return }
        isAnsweringCheckpoint = true
        defer { isAnsweringCheckpoint = false }
        context.processPendingChanges()
    }
}
