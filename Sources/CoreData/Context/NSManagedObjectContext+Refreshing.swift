/// Discarding and refreshing: rollback, reset, refresh, and merging other contexts' saves.
extension NSManagedObjectContext {
    /// Discards every unsaved change: new objects go, deleted ones come back, edits are undone.
    /// The undo manager's operations are removed.
    ///
    /// Posts `NSManagedObjectContextObjectsDidChange` describing the undoing, so observers (a
    /// fetched results controller) follow it: new objects that go are reported deleted, deleted
    /// objects that come back inserted, and edited objects refreshed.
    public func rollback() {
        performAndWait {
            let removed = insertedSet
            let restored = deletedSet.subtracting(insertedSet)
            let reverted = changedSet.subtracting(insertedSet).subtracting(deletedSet)
            for object in removed {
                registered.remove(object)
                object.insertedFlag = false
                object.managedObjectContext = nil
            }
            for object in restored.union(reverted) {
                // What the undoing changed, for observers that care which keys did.
                object.eventChangedKeys = object.changedKeys
                object.deletedFlag = false
                object.turnIntoFault()
            }
            forgetPendingChanges()
            guard !removed.isEmpty || !restored.isEmpty || !reverted.isEmpty else { return }
            postObjectsDidChange(inserted: restored.objects, updated: [], deleted: removed.objects, refreshed: reverted.objects)
        }
    }

    /// Forgets every registered object; objects from before are unusable afterwards. The undo
    /// manager's operations are removed.
    ///
    /// As on Apple platforms, every object the context held, new ones included, becomes a
    /// fault of no context, and objects-did-change carries the IDs of them all under
    /// `NSInvalidatedAllObjectsKey`.
    public func reset() {
        performAndWait {
            let objects = registered.objects
            let ids = registered.ids
            for object in objects {
                if object.faultFlag { object.takeReadAheadRow(in: self) } else { object.turnIntoFault() }
                object.insertedFlag = false
                object.deletedFlag = false
                object.managedObjectContext = nil
            }
            reportUnregistered(ids)
            registered = RegisteredObjects()
            forgetPendingChanges()
            rowCache = [:]
            advanceQueryGeneration()
            postObjectsDidChange(inserted: [], updated: [], deleted: [], invalidatedAll: ids)
        }
    }

    /// Empties the change-tracking sets (the objects themselves are dealt with by the caller)
    /// and the undo manager, whose operations would restore what is gone.
    private func forgetPendingChanges() {
        forgetRecordedMisuse()
        undoRecording?.discardAll()
        insertedSet = []
        deletedSet = []
        changedSet = []
        unprocessedInserted = []
        unprocessedUpdated = []
        unprocessedDeleted = []
    }

    /// Re-reads an object from the store: `mergeChanges: false` drops its unsaved changes (it
    /// becomes a fault), `true` keeps them on top of the fresh values.
    ///
    /// An object refreshed under its unsaved changes is posted as refreshed in
    /// `NSManagedObjectContextObjectsDidChange`, with the keys whose values moved as its
    /// `changedValuesForCurrentEvent()`, as `refreshAllObjects()` and merges post theirs. One
    /// turned into a fault tells its own observers (`didTurnIntoFault()`).
    public func refresh(_ object: NSManagedObject, mergeChanges flag: Bool) {
        performAndWait {
            guard refreshWithoutPosting(object, mergeChanges: flag) else { return }
            postObjectsDidChange(inserted: [], updated: [], deleted: [], refreshed: [object])
        }
    }

    /// `refresh(_:mergeChanges:)` without its notification; true when the object's values were
    /// read again underneath its unsaved changes.
    private func refreshWithoutPosting(_ object: NSManagedObject, mergeChanges flag: Bool) -> Bool {
        guard object.managedObjectContext === self, !object.insertedFlag else { return false }
        object.takeReadAheadRow(in: self)
        // A refresh reads the store again, not what this coordinator read before.
        persistentStoreCoordinator?.rowCache.remove(CollectionOfOne(object.objectID))
        // Fetched properties are fetched again after any refresh.
        object.forgetFetchedPropertyResults()
        guard flag, object.hasChanges else {
            changedSet.remove(object)
            object.turnIntoFault()
            return false
        }
        guard let row = try? upstreamRows(for: [object.objectID])[object.objectID] else { return false }
        object.apply(row, keepingChangesIn: self)
        return true
    }

    /// Refreshes every registered object, keeping unsaved changes.
    public func refreshAllObjects() {
        performAndWait {
            let objects = Array(registered.objects)
            for object in objects { _ = refreshWithoutPosting(object, mergeChanges: true) }
            postObjectsDidChange(inserted: [], updated: [], deleted: [], refreshed: Set(objects.filter { !$0.insertedFlag }))
        }
    }

    /// Brings another context's save (the `userInfo` of its did-save notification) into this
    /// context: updated objects are refreshed, deleted ones removed, inserted ones registered.
    public func mergeChanges(fromContextDidSave notification: Notification) {
        performAndWait {
            // A save through this coordinator left its rows in the row cache; any other save
            // (another coordinator, another process) did not, so those rows are read again.
            let saver = (notification.object as? NSManagedObjectContext)?.persistentStoreCoordinator
            let userInfo = notification.userInfo ?? [:]
            if saver !== persistentStoreCoordinator { forgetCachedRows(named: userInfo) }
            advanceQueryGeneration()
            mergeChanges(fromObjectIDs: userInfo)
        }
    }

    /// Merges changes described by object IDs, URIs or objects (of any context) into each context,
    /// e.g. the result of a batch request.
    public class func mergeChanges(fromRemoteContextSave changeNotificationData: [AnyHashable: Any], into contexts: [NSManagedObjectContext]) {
        for context in contexts {
            context.performAndWait {
                context.forgetCachedRows(named: changeNotificationData)
                context.mergeChanges(fromObjectIDs: changeNotificationData)
            }
        }
    }

    /// Drops the coordinator's cached rows of the objects a change description names.
    private func forgetCachedRows(named userInfo: [AnyHashable: Any]) {
        persistentStoreCoordinator?.rowCache.remove(objectIDs(in: userInfo, keys: Self.allChangeKeys))
    }

    private static let allChangeKeys = [NSInsertedObjectsKey, NSInsertedObjectIDsKey, NSUpdatedObjectsKey, NSUpdatedObjectIDsKey,
                                        NSRefreshedObjectsKey, NSRefreshedObjectIDsKey, NSDeletedObjectsKey, NSDeletedObjectIDsKey,
                                        NSInvalidatedObjectsKey, NSInvalidatedObjectIDsKey]

    private static let insertedKeys = [NSInsertedObjectsKey, NSInsertedObjectIDsKey]
    private static let updatedKeys = [NSUpdatedObjectsKey, NSUpdatedObjectIDsKey, NSRefreshedObjectsKey, NSRefreshedObjectIDsKey]

    /// The objects a merge of `userInfo` reads rows for: the inserted and updated ones.
    func objectIDsToRead(in userInfo: [AnyHashable: Any]) -> [NSManagedObjectID] {
        Array(objectIDs(in: userInfo, keys: Self.insertedKeys).union(objectIDs(in: userInfo, keys: Self.updatedKeys)))
    }

    /// Merges the changes `userInfo` describes, with `rows` read ahead (by the parent, for an
    /// automatic merge) or, when nil, read from upstream now.
    func mergeChanges(fromObjectIDs userInfo: [AnyHashable: Any], rows: [NSManagedObjectID: RowSnapshot]? = nil) {
        let inserted = objectIDs(in: userInfo, keys: Self.insertedKeys)
        let updated = objectIDs(in: userInfo, keys: Self.updatedKeys)
        let deleted = objectIDs(in: userInfo, keys: [NSDeletedObjectsKey, NSDeletedObjectIDsKey, NSInvalidatedObjectsKey, NSInvalidatedObjectIDsKey])
        guard !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty else { return }
        processPendingChanges()
        // Another context's save is not an edit of this one to undo.
        withoutUndoRegistration { mergeProcessedChanges(inserted: inserted, updated: updated, deleted: deleted, rows: rows) }
        NotificationCenter.default.post(name: .NSManagedObjectContextDidMergeChangesObjectIDs, object: self, userInfo: [
            NSInsertedObjectIDsKey: inserted, NSUpdatedObjectIDsKey: updated, NSDeletedObjectIDsKey: deleted,
        ])
    }

    private func mergeProcessedChanges(inserted: Set<NSManagedObjectID>, updated: Set<NSManagedObjectID>, deleted: Set<NSManagedObjectID>,
                                       rows: [NSManagedObjectID: RowSnapshot]?) {
        var insertedObjects = Set<NSManagedObject>()
        var updatedObjects = Set<NSManagedObject>()
        var deletedObjects = Set<NSManagedObject>()
        let fresh = rows ?? (try? upstreamRows(for: Array(updated.union(inserted)))) ?? [:]
        for id in inserted where registered[id] == nil {
            let object = self.object(with: id)
            if let row = fresh[id] { rowCache[id] = row }
            insertedObjects.insert(object)
        }
        for id in updated {
            guard let object = registered[id] else { continue }
            object.takeReadAheadRow(in: self)
            if let row = fresh[id] {
                if object.faultFlag {
                    rowCache[id] = row
                } else {
                    object.apply(row, keepingChangesIn: self)
                }
            }
            updatedObjects.insert(object)
        }
        for id in deleted {
            guard let object = registered[id] else { continue }
            forget(object)
            deletedObjects.insert(object)
        }
        // As on Apple platforms, objects another save changed are reported refreshed: they
        // hold new values, but this context did not edit them.
        postObjectsDidChange(inserted: insertedObjects, updated: [], deleted: deletedObjects, refreshed: updatedObjects)
    }

    private static func items(of value: Any) -> [Any] {
        if let objects = value as? Set<NSManagedObject> { return Array(objects) }
        if let ids = value as? Set<NSManagedObjectID> { return Array(ids) }
        if let array = value as? [Any] { return array }
        if let set = value as? NSSet { return set.allObjects }
        if let set = value as? Set<AnyHashable> { return Array(set) }
        return []
    }

    private func objectIDs(in userInfo: [AnyHashable: Any], keys: [String]) -> Set<NSManagedObjectID> {
        var ids = Set<NSManagedObjectID>()
        for key in keys {
            guard let value = userInfo[key] else { continue }
            for item in Self.items(of: value) {
                if let id = item as? NSManagedObjectID { ids.insert(id) }
                else if let object = item as? NSManagedObject { ids.insert(object.objectID) }
                else if let url = item as? URL, let id = persistentStoreCoordinator?.managedObjectID(forURIRepresentation: url) { ids.insert(id) }
            }
        }
        return ids
    }
}

extension NSManagedObjectContext {
    /// Tells the stores that track registrations that this context let go of `ids`.
    func reportUnregistered(_ ids: some Sequence<NSManagedObjectID>) {
        let byStore = Dictionary(grouping: ids.filter { $0.persistentStore?.observesRegistrations == true },
                                 by: { ObjectIdentifier($0.persistentStore!) })
        for storeIDs in byStore.values { storeIDs[0].persistentStore!.managedObjectContextDidUnregisterObjects(with: storeIDs) }
    }
}
