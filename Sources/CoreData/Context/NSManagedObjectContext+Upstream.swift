/// Where a context reads what it has not loaded: its parent context (including the parent's
/// unsaved changes) or, for a top-level context, the persistent store coordinator.
///
/// A fetch first adopts the permanent IDs an ancestor's save assigned, so the IDs it reads name
/// the instances this context already holds.
extension NSManagedObjectContext {
    func upstreamObjectIDs(_ fetch: StoreFetch) throws -> [NSManagedObjectID] {
        Array(try upstreamObjectIDList(fetch))
    }

    /// The same IDs compactly: a store's list makes no `NSManagedObjectID` until one is read.
    func upstreamObjectIDList(_ fetch: StoreFetch) throws -> ObjectIDList {
        adoptPendingPermanentIDs()
        if let parent {
            return try parent.performAndWait { try parent.matchingObjectIDList(fetch, includesPendingChanges: true) }
        }
        guard let coordinator = persistentStoreCoordinator else { throw noCoordinator() }
        return try readingQueryGeneration { try coordinator.store(for: fetch.entity).fetchObjectIDList(fetch, for: self) }
    }

    /// Rows for a fetch in one pass: a top-level context reads IDs and values in one query.
    func upstreamRows(_ fetch: StoreFetch) throws -> [RowSnapshot] {
        adoptPendingPermanentIDs()
        if parent != nil {
            let ids = try upstreamObjectIDs(fetch)
            let rows = try upstreamRows(for: ids)
            return ids.compactMap { rows[$0] }
        }
        guard let coordinator = persistentStoreCoordinator else { throw noCoordinator() }
        return try readingQueryGeneration { try coordinator.fetchRows(fetch, for: self) }
    }

    func upstreamCount(_ fetch: StoreFetch) throws -> Int {
        adoptPendingPermanentIDs()
        if parent != nil { return try upstreamObjectIDList(fetch).count }
        guard let coordinator = persistentStoreCoordinator else { throw noCoordinator() }
        return try readingQueryGeneration { try coordinator.store(for: fetch.entity).count(fetch, for: self) }
    }

    func upstreamRows(for ids: [NSManagedObjectID]) throws -> [NSManagedObjectID: RowSnapshot] {
        if let parent {
            return parent.performAndWait { parent.currentRows(for: ids) }
        }
        guard let coordinator = persistentStoreCoordinator else { throw noCoordinator() }
        return try readingQueryGeneration { try coordinator.rows(for: ids, for: self) }
    }

    func upstreamRelatedObjectIDs(_ relationship: NSRelationshipDescription, of source: NSManagedObjectID) throws -> [NSManagedObjectID] {
        if let parent {
            return parent.performAndWait {
                let object = parent.object(with: source)
                return object.deletedFlag ? [] : object.toManyMembers(forKey: relationship.name).objects.map(\.objectID)
            }
        }
        guard let coordinator = persistentStoreCoordinator else { throw noCoordinator() }
        return try readingQueryGeneration { try coordinator.store(for: source).relatedObjectIDs(relationship, of: source, for: self) }
    }

    /// This context's view of `ids` as rows, unsaved changes included: what a child reads.
    func currentRows(for ids: [NSManagedObjectID]) -> [NSManagedObjectID: RowSnapshot] {
        var rows: [NSManagedObjectID: RowSnapshot] = [:]
        for id in ids {
            let object = self.object(with: id)
            guard !object.deletedFlag else { continue }
            object.fireFaultIfNeeded()
            guard object.committed != nil || object.insertedFlag else { continue }
            rows[id] = object.currentRow(version: object.committed?.version ?? 0)
        }
        return rows
    }
}
