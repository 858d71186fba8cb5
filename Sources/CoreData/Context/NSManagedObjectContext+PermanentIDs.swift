/// Permanent IDs reaching child contexts: an object a child pushed to its parent is held by both
/// under one temporary ID; when the parent (or an ancestor) gives it a permanent ID, every
/// descendant re-keys its copy, so the child's later saves and lookups name the stored row.
extension NSManagedObjectContext {
    /// Tells each child, on the child's own queue and without waiting, which temporary IDs became
    /// which permanent ones.
    ///
    /// Asynchronous because a child may be blocked in `performAndWait` on this context's queue
    /// (reading through it); enqueued before the did-save notification is posted, so a child
    /// merging that notification has re-keyed first.
    func propagateToChildren(_ permanentIDs: [NSManagedObjectID: NSManagedObjectID]) {
        guard !permanentIDs.isEmpty else { return }
        for child in childContexts {
            child.perform { child.adoptPermanentIDs(permanentIDs) }
        }
    }

    /// Re-keys registered objects, read-ahead rows and stored references from temporary IDs to
    /// permanent ones, then passes the mapping on to this context's own children.
    func adoptPermanentIDs(_ permanentIDs: [NSManagedObjectID: NSManagedObjectID]) {
        for (temporaryID, permanentID) in permanentIDs {
            // Already registered under the permanent ID (fetched after the save): keep that one.
            guard let object = registered[temporaryID], registered[permanentID] == nil else { continue }
            reassignID(of: object, to: permanentID)
            if let row = rowCache.removeValue(forKey: temporaryID) { rowCache[permanentID] = row }
        }
        for object in registered.values {
            guard let committed = object.committed else { continue }
            object.committed = committed.replacingIDs(permanentIDs, objectID: object.objectID)
        }
        for (id, row) in rowCache { rowCache[id] = row.replacingIDs(permanentIDs, objectID: id) }
        propagateToChildren(permanentIDs)
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
