/// Registering objects: inserting, deleting, and looking objects up by ID.
extension NSManagedObjectContext {
    /// Registers a new object; it is saved at the next `save()`.
    public func insert(_ object: NSManagedObject) {
        ConcurrencyDebug.check(self, "insert(_:)")
        if object.managedObjectContext === self {
            // Re-inserting a deleted object undoes the delete.
            if object.deletedFlag { undelete(object) }
            return
        }
        if let owner = object.managedObjectContext {
            recordMisuse(CoreDataError.misuse(
                "Cannot insert an object that belongs to another context (\(owner.name ?? "unnamed")); pass its objectID and use object(with:) instead",
                [NSAffectedObjectsErrorKey: [object]]))
            return
        }
        attach(object)
        object.awakeFromInsert()
    }

    /// Registers an object of no context as new: an insertion, or an undone deletion that a
    /// save had already written.
    private func attach(_ object: NSManagedObject) {
        undoRecording?.objectWillChangeMembership(object)
        object.managedObjectContext = self
        object.insertedFlag = true
        object.deletedFlag = false
        insertionCounter += 1
        object.insertionSerial = insertionCounter
        registered.insert(object)
        insertedSet.insert(object)
        unprocessedInserted.insert(object)
        object.values.fillDefaults()
        scheduleProcessing()
    }

    /// Takes back a deletion not yet saved. The object is reported inserted at the next
    /// `processPendingChanges()`, as `rollback()` reports the deletions it takes back.
    private func undelete(_ object: NSManagedObject) {
        undoRecording?.objectWillChangeMembership(object)
        object.deletedFlag = false
        deletedSet.remove(object)
        unprocessedDeleted.remove(object)
        // A new object deleted and processed left the context; it comes back.
        registered.insert(object)
        if object.insertedFlag {
            insertedSet.insert(object)
        } else if !object.changedKeys.isEmpty {
            changedSet.insert(object)
        }
        unprocessedInserted.insert(object)
        scheduleProcessing()
    }

    /// Brings back an object an undo step deleted, whether or not the deletion was saved;
    /// `awakeFromInsert()` is not called again.
    func revive(_ object: NSManagedObject) {
        if object.managedObjectContext === self { undelete(object) } else { attach(object) }
    }

    /// Marks an object for deletion; delete rules run at the next `processPendingChanges()`.
    public func delete(_ object: NSManagedObject) {
        ConcurrencyDebug.check(self, "delete(_:)")
        if let owner = object.managedObjectContext, owner !== self {
            recordMisuse(CoreDataError.misuse(
                "Cannot delete an object that belongs to another context (\(owner.name ?? "unnamed")); delete it in its own context",
                [NSAffectedObjectsErrorKey: [object]]))
            return
        }
        guard object.managedObjectContext === self, !object.deletedFlag else { return }
        object.fireFaultIfNeeded()
        undoRecording?.objectWillChangeMembership(object)
        object.deletedFlag = true
        deletedSet.insert(object)
        unprocessedDeleted.insert(object)
        changedSet.remove(object)
        unprocessedUpdated.remove(object)
        scheduleProcessing()
    }

    /// The object for `objectID`: the registered one, or a new fault whose values are read on
    /// first access. Never fails; use `existingObject(with:)` to check the row exists.
    public func object(with objectID: NSManagedObjectID) -> NSManagedObject {
        ConcurrencyDebug.check(self, "object(with:)")
        return registeredObject(named: objectID.name)
            ?? registerFault(of: objectID.entity) { $0.becomeFault(identifiedBy: objectID) }
    }

    /// The registered object of that name, after adopting permanent IDs a parent's save handed
    /// over if it is not found at first.
    func registeredObject(named name: ObjectName) -> NSManagedObject? {
        if let object = registered.object(named: name) { return object }
        return adoptPendingPermanentIDs() ? registered.object(named: name) : nil
    }

    /// Makes a fault of `entity`, gives it its identity with `identify`, and registers it.
    func registerFault(of entity: NSEntityDescription, identify: (NSManagedObject) -> Void) -> NSManagedObject {
        let object = faultClass(for: entity).init(_entity: entity, insertInto: nil)
        identify(object)
        object.managedObjectContext = self
        registered.insert(object)
        if let store = object.registrationName.store, store.observesRegistrations {
            store.managedObjectContextDidRegisterObjects(with: [object.objectID])
        }
        return object
    }

    /// The class of a new fault of `entity`. Only a subclass is remembered: a class name that
    /// nothing answers yet (`NSManagedObject`) may be answered by a class used later.
    private func faultClass(for entity: NSEntityDescription) -> NSManagedObject.Type {
        if let last = lastFaultClass, last.entity === entity { return last.objectClass }
        let objectClass = ManagedObjectClassRegistry.shared.objectClass(for: entity)
        if objectClass != NSManagedObject.self { lastFaultClass = (entity, objectClass) }
        return objectClass
    }

    /// The object for `objectID` with its values loaded; throws 133000 if its row is gone.
    /// Runs on the context's queue, so it may be called from inside another context's block.
    public func existingObject(with objectID: NSManagedObjectID) throws -> NSManagedObject {
        try performAndWait {
            // A non-fault that is neither new nor read from a row is one whose row vanished.
            if let object = registered[objectID], !object.faultFlag, object.insertedFlag || object.committed != nil { return object }
            guard let row = try upstreamRows(for: [objectID])[objectID] else {
                throw CoreDataError.make(NSManagedObjectReferentialIntegrityError,
                                         "No object with ID \(objectID.uriRepresentation().absoluteString) exists",
                                         [NSAffectedObjectsErrorKey: [objectID]])
            }
            let object = self.object(with: objectID)
            if object.faultFlag {
                object.apply(row, in: self)
                awaken(fetched: object)
            }
            return object
        }
    }

    /// The registered object for `objectID`, without creating a fault.
    public func registeredObject(for objectID: NSManagedObjectID) -> NSManagedObject? {
        ConcurrencyDebug.check(self, "registeredObject(for:)")
        return registered[objectID]
    }

    /// Every object the context holds, faults included.
    public var registeredObjects: Set<NSManagedObject> {
        ConcurrencyDebug.check(self, "registeredObjects")
        return Set(registered.objects)
    }

    /// Objects inserted since the last save.
    public var insertedObjects: Set<NSManagedObject> {
        ConcurrencyDebug.check(self, "insertedObjects")
        return insertedSet.objects
    }

    /// Stored objects deleted since the last save (new objects deleted again are simply gone).
    public var deletedObjects: Set<NSManagedObject> {
        ConcurrencyDebug.check(self, "deletedObjects")
        return deletedSet.filter { !$0.insertedFlag }.objects
    }

    /// Stored objects with unsaved property changes.
    public var updatedObjects: Set<NSManagedObject> {
        ConcurrencyDebug.check(self, "updatedObjects")
        return changedSet.filter { !$0.insertedFlag && !$0.deletedFlag && !$0.changedKeys.isEmpty }.objects
    }

    /// True when a save would write something.
    public var hasChanges: Bool {
        ConcurrencyDebug.check(self, "hasChanges")
        return !insertedSet.isEmpty || !deletedSet.isEmpty || changedSet.contains { !$0.changedKeys.isEmpty }
    }

    /// Reads a fault's values: from rows read ahead, or else from the parent or store.
    func fulfillFault(_ object: NSManagedObject) {
        let objectID = object.objectID
        if let batch = object.fetchBatch { batch.load(in: self) }
        var row = object.takeReadAheadRow(in: self)
        var unread: NSError?
        if row == nil {
            do { row = try upstreamRows(for: [objectID])[objectID] } catch { unread = error as NSError }
        }
        if let row {
            object.apply(row, in: self)
            awaken(fetched: object)
            return
        }
        // No row: it was deleted elsewhere, or the store did not answer (a lost server, say).
        // Apple raises (or deletes the object); we never raise: the object reads as empty until
        // refreshed, and a save that involves it throws (the store's own error if it did not
        // answer, which says nothing of the row).
        object.faultFlag = false
        object.values.removeAll()
        if let unread {
            object.unreadRowError = unread
        } else if !shouldDeleteInaccessibleFaults {
            object.deferredErrors.append(CoreDataError.make(NSManagedObjectReferentialIntegrityError,
                "The object \(objectID.uriRepresentation().absoluteString) was deleted from the store",
                [NSAffectedObjectsErrorKey: [object]]))
        }
    }

    /// Calls `awakeFromFetch()`, whose changes (setting up transient values) are not the
    /// user's edits and so are not recorded for undo, as on Apple platforms.
    func awaken(fetched object: NSManagedObject) {
        withoutUndoRegistration { object.awakeFromFetch() }
    }

    /// Members of a to-many relationship of a stored object, as objects of this context.
    func loadToMany(_ key: String, of object: NSManagedObject) -> [NSManagedObject] {
        // A new object's relationships start empty; only stored (or parent-held) ones are read.
        guard !object.objectID.isTemporaryID || parent != nil,
              let relationship = object.entity.relationshipsByName[key] else { return [] }
        let ids = (try? upstreamRelatedObjectIDs(relationship, of: object.objectID)) ?? []
        return ids.map { self.object(with: $0) }
    }

    /// Gives objects their permanent IDs now rather than at save. Runs on the context's queue.
    public func obtainPermanentIDs(for objects: [NSManagedObject]) throws {
        try performAndWait {
            guard let coordinator = persistentStoreCoordinator else { throw noCoordinator() }
            let temporary = objects.filter { $0.objectID.isTemporaryID }
            guard !temporary.isEmpty else { return }
            let permanent = try coordinator.store(for: temporary[0].entity).permanentIDs(for: temporary)
            let temporaryIDs = temporary.map(\.objectID)
            for (object, id) in zip(temporary, permanent) { reassignID(of: object, to: id) }
            renameDestinations(Dictionary(zip(temporaryIDs.map(\.name.key), permanent)) { _, later in later })
            // Only children need the mapping, and a dictionary keyed by IDs compares them
            // through `isEqual(_:)`, which is slow: built only for them.
            if !childContexts.isEmpty {
                propagateToChildren(Dictionary(zip(temporaryIDs, permanent)) { _, later in later })
            }
        }
    }

    /// Moves an object's registration from its temporary ID to its permanent one.
    func reassignID(of object: NSManagedObject, to newID: NSManagedObjectID) {
        registered.remove(object)
        object.objectID = newID
        registered.insert(object)
    }

    func noCoordinator() -> NSError {
        CoreDataError.misuse("The context has neither a persistent store coordinator nor a parent context")
    }
}
