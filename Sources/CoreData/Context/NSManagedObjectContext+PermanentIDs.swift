/// Permanent IDs reaching child contexts: an object a child pushed to its parent is held by both
/// under one temporary ID; when the parent (or an ancestor) gives it a permanent ID, every
/// descendant re-keys its copy, so the child's later saves and lookups name the stored row.
extension NSManagedObjectContext {
    /// Tells each child which temporary IDs became which permanent ones.
    ///
    /// The mapping waits in the child's mailbox and is adopted on the child's queue either by
    /// the block enqueued here or, sooner, by the child's next read through its parent or next
    /// look-up of an ID it does not hold. The block cannot be awaited (a child may be blocked in
    /// `performAndWait` on this context's queue) and may run late (when this save was itself
    /// called from inside the child's block): reading first would make a second instance of an
    /// object the child already holds under its temporary ID.
    func propagateToChildren(_ permanentIDs: [NSManagedObjectID: NSManagedObjectID]) {
        guard !permanentIDs.isEmpty else { return }
        for child in childContexts {
            child.pendingPermanentIDs.withLock { $0.merge(permanentIDs) { _, new in new } }
            child.hasPendingPermanentIDs.store(true, ordering: .releasing)
            child.perform { child.adoptPendingPermanentIDs() }
        }
    }

    /// Adopts what a parent's saves left in the mailbox. One atomic load when the mailbox is
    /// empty, so look-ups on the hot path can afford it; off the context's queue (an
    /// asynchronous fetch reads there) it leaves the mailbox for the queue to empty. Returns
    /// whether it re-keyed anything, so a look-up that missed need not look again otherwise.
    @discardableResult
    func adoptPendingPermanentIDs() -> Bool {
        guard hasPendingPermanentIDs.load(ordering: .acquiring), isOnQueue,
              hasPendingPermanentIDs.exchange(false, ordering: .acquiring) else { return false }
        let mapping = pendingPermanentIDs.withLock { pending in
            defer { pending = [:] }
            return pending
        }
        adoptPermanentIDs(mapping)
        return true
    }

    /// Re-keys registered objects, read-ahead rows and stored references from temporary IDs to
    /// permanent ones, then passes the mapping on to this context's own children.
    private func adoptPermanentIDs(_ permanentIDs: [NSManagedObjectID: NSManagedObjectID]) {
        for (temporaryID, permanentID) in permanentIDs {
            // Already registered under the permanent ID (fetched after the save): keep that one.
            guard let object = registered[temporaryID], registered[permanentID] == nil else { continue }
            reassignID(of: object, to: permanentID)
            if let row = rowCache.removeValue(forKey: temporaryID) { rowCache[permanentID] = row }
        }
        let objects = registered.objects
        for object in objects {
            guard let committed = object.committed else { continue }
            object.committed = committed.replacingIDs(permanentIDs, objectID: object.objectID)
        }
        // Objects this context pushed to its parent are saved here, yet may name new objects.
        renameDestinations(in: objects, Dictionary(permanentIDs.map { ($0.key.name.key, $0.value) }) { _, later in later })
        for (id, row) in rowCache { rowCache[id] = row.replacingIDs(permanentIDs, objectID: id) }
        for object in objects { object.replaceIDsInFetchedRow(permanentIDs) }
        propagateToChildren(permanentIDs)
    }
}

extension NSManagedObjectContext {
    /// Names destinations that became permanent by their new IDs in the to-ones of `objects`,
    /// `permanentIDs` keyed by the temporary IDs' keys (unique in the process). After a save,
    /// only objects with unsaved changes (or, in a child, pushed to the parent) can hold a
    /// temporary ID: a row read from a store holds none.
    func renameDestinations(in objects: some Sequence<NSManagedObject>, _ permanentIDs: [Int64: NSManagedObjectID]) {
        guard !permanentIDs.isEmpty else { return }
        for object in objects where !object.faultFlag {
            object.values.replaceTemporaryIDs { permanentIDs[$0.name.key] }
        }
    }

    /// `renameDestinations(in:_:)` in the objects of this context that may hold a new object's
    /// ID: those with unsaved changes, and in a child context every object.
    func renameDestinations(_ permanentIDs: [Int64: NSManagedObjectID]) {
        guard !permanentIDs.isEmpty else { return }
        if parent != nil { return renameDestinations(in: registered.objects, permanentIDs) }
        renameDestinations(in: insertedSet, permanentIDs)
        renameDestinations(in: changedSet, permanentIDs)
        renameDestinations(in: deletedSet, permanentIDs)
    }
}

extension RowSnapshot {
    /// The same row naming objects by their new IDs.
    func replacingIDs(_ mapping: [NSManagedObjectID: NSManagedObjectID], objectID: NSManagedObjectID) -> RowSnapshot {
        var copy = RowSnapshot(objectID: objectID, version: version, values: values)
        for ordinal in values.slots.indices {
            if case .objectID(let id)? = values[ordinal: ordinal], let replacement = mapping[id] { copy.values[ordinal: ordinal] = .objectID(replacement) }
        }
        return copy
    }
}
