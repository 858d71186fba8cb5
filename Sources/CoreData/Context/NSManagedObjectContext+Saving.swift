/// Saving: validate, then write everything in one step, to the parent context or in one store
/// transaction; on failure nothing is written and the context keeps its changes.
extension NSManagedObjectContext {
    /// Commits unsaved changes to the parent context or the persistent store.
    ///
    /// Throws misuse recorded since the last save (133010 for relationships across contexts),
    /// validation errors (several at once as 1560), 133020 for optimistic-locking conflicts and
    /// 133021 for uniqueness-constraint conflicts under `NSErrorMergePolicy`, or the store's
    /// error; the context's changes are kept in every case.
    public func save() throws {
        try performAndWait {
            releasePendingSavedObjects()
            // Name objects the parent already stored by their permanent IDs before pushing.
            adoptPendingPermanentIDs()
            processPendingChanges()
            try throwRecordedMisuse()
            guard hasChanges else {
                // Metadata set with `setMetadata(_:for:)` is written by the next save, even
                // one with no object to write, as Apple's is.
                if parent == nil { try persistentStoreCoordinator?.writePendingMetadata() }
                return
            }
            // What saving changes (willSave, derived attributes, constraint resolution) is not
            // an edit to undo; the edits were registered by the processing above.
            pendingSavedObjects += try withoutUndoRegistration(saveProcessedChanges)
        }
    }

    /// The save itself, once pending changes are processed and there is something to save;
    /// returns the IDs of the objects saved and still registered.
    private func saveProcessedChanges() throws -> [NSManagedObjectID] {
        NotificationCenter.default.post(name: .NSManagedObjectContextWillSave, object: self)
        let inserted = Array(insertedSet)
        let deleted = Array(deletedObjects)
        let updated = Array(updatedObjects)
        for object in inserted + updated + deleted { object.willSave() }
        // willSave may change more objects.
        processPendingChanges()
        if parent == nil { updateDerivedAttributes() }
        if validatesOnSave {
            try validate(inserted: Array(insertedSet), updated: Array(updatedObjects), deleted: Array(deletedObjects))
        }
        if let parent {
            return try push(into: parent)
        } else {
            return try writeToStore()
        }
    }

    private func validate(inserted: [NSManagedObject], updated: [NSManagedObject], deleted: [NSManagedObject]) throws {
        // An object whose row the store could not give holds nothing to validate or write:
        // the save fails with the store's error (a lost server), not as a validation error.
        for object in [updated, deleted].joined() { if let unread = object.unreadRowError { throw unread } }
        var errors: [NSError] = []
        func collect(_ body: () throws -> Void) {
            do { try body() } catch let error as NSError { errors.append(error) }
        }
        for object in inserted { collect { try object.validateForInsert() } }
        for object in updated { collect { try object.validateForUpdate() } }
        for object in deleted { collect { try object.validateForDelete() } }
        try NSManagedObject.throwCombined(errors)
    }

    // MARK: Top-level save

    private func writeToStore() throws -> [NSManagedObjectID] {
        guard let coordinator = persistentStoreCoordinator else { throw noCoordinator() }
        try enforceUniquenessConstraints()
        try obtainPermanentIDs(for: Array(insertedSet))
        var attempt = try storeChanges()
        // Another process can commit between resolving a conflict and writing again, so resolve
        // again (a bounded number of times); the internal conflict never escapes `save()`.
        var rounds = 0
        while true {
            do {
                try coordinator.apply(attempt.changes, from: self)
                break
            } catch let conflict as StoreVersionConflict {
                rounds += 1
                guard rounds <= 16 else {
                    throw CoreDataError.make(NSManagedObjectMergeError,
                        "Could not merge changes: \(conflict.conflicts.count) object(s) kept changing in the store during \(rounds - 1) attempts")
                }
                attempt = try resolve(conflict)
            }
        }
        return markSaved(inserted: attempt.inserted, updated: attempt.updated, deleted: attempt.deleted,
                         committedRows: attempt.rowsByObject, tokens: tokensAfterSave(coordinator))
    }

    /// What the did-save notifications carry besides the objects, under Apple's keys: the
    /// history token after the save when the store tracks history, and the query generation
    /// the context moves to when it reads pinned generations.
    private func tokensAfterSave(_ coordinator: NSPersistentStoreCoordinator) -> [AnyHashable: Any] {
        var tokens: [AnyHashable: Any] = [:]
        if let store = try? coordinator.store(for: nil) as? any HistoryTracking, store.tracksHistory,
           let identifier = store.identifier, let number = try? store.lastTransactionNumber() {
            tokens[NSPersistentHistoryTokenKey] = NSPersistentHistoryToken(storeTokens: [identifier: number])
        }
        if let generation = queryGenerationAfterSave() {
            tokens[NSManagedObjectContextQueryGenerationKey] = generation
        }
        return tokens
    }

    /// What a save writes, and which objects it covers.
    struct SaveAttempt {
        var changes = StoreChanges()
        var inserted: [NSManagedObject] = []
        var updated: [NSManagedObject] = []
        var deleted: [NSManagedObject] = []
        var rowsByObject: [ObjectIdentifier: RowSnapshot] = [:]
    }

    func storeChanges() throws -> SaveAttempt {
        var attempt = SaveAttempt()
        attempt.changes.origin = TransactionOrigin(context: self)
        for object in insertedSet {
            let row = object.currentRow(version: 1)
            attempt.changes.inserted.append(row)
            attempt.rowsByObject[ObjectIdentifier(object)] = row
            attempt.inserted.append(object)
            appendToManyChanges(of: object, all: true, to: &attempt.changes)
        }
        for object in updatedObjects {
            attempt.updated.append(object)
            guard object.hasPersistentChangedValues else { continue }
            let version = object.committed?.version ?? 0
            let row = object.currentRow(version: version + 1)
            attempt.changes.updated.append((row, version))
            attempt.changes.updatedProperties[object.objectID] = object.changedKeys.names.filter { object.entity.propertiesByName[$0]?.isTransient == false }
            attempt.rowsByObject[ObjectIdentifier(object)] = row
            appendToManyChanges(of: object, all: false, to: &attempt.changes)
        }
        for object in deletedSet where !object.insertedFlag {
            attempt.changes.deleted.append((object.objectID, object.committed?.version ?? 0))
            attempt.deleted.append(object)
        }
        return attempt
    }

    private func appendToManyChanges(of object: NSManagedObject, all: Bool, to changes: inout StoreChanges) {
        for (name, members) in toManyIDs(of: object, all: all) {
            guard let relationship = object.entity.relationshipsByName[name] else { continue }
            changes.toMany.append(ToManyChange(relationship: relationship, source: object.objectID, members: members))
        }
    }

    /// Marks objects saved, giving them their committed rows where `committedRows` has one,
    /// forgets the deleted ones, and posts the did-save notifications: the end of a save to the
    /// store and of a child's save into its parent. Returns the IDs of the objects still registered.
    private func markSaved(inserted: [NSManagedObject], updated: [NSManagedObject], deleted: [NSManagedObject],
                           committedRows: [ObjectIdentifier: RowSnapshot], tokens: [AnyHashable: Any] = [:]) -> [NSManagedObjectID] {
        for object in inserted + updated {
            if let row = committedRows[ObjectIdentifier(object)] { object.committed = row }
            object.changedKeys.removeAll()
        }
        for object in inserted { object.insertedFlag = false }
        for object in deleted {
            registered.remove(object)
            object.takeReadAheadRow(in: self)
        }
        insertedSet = []
        deletedSet = []
        changedSet = []
        for object in inserted + updated + deleted { object.didSave() }
        for object in deleted { object.managedObjectContext = nil }
        undoRecording?.noteSaved()
        postDidSave(inserted: inserted, updated: updated, deleted: deleted, tokens: tokens)
        return (inserted + updated).map(\.objectID)
    }

    func postDidSave(inserted: [NSManagedObject], updated: [NSManagedObject], deleted: [NSManagedObject], tokens: [AnyHashable: Any] = [:]) {
        let objects: [AnyHashable: Any] = [
            NSInsertedObjectsKey: Set(inserted), NSUpdatedObjectsKey: Set(updated), NSDeletedObjectsKey: Set(deleted),
        ]
        NotificationCenter.default.post(name: .NSManagedObjectContextDidSave, object: self,
                                        userInfo: objects.merging(tokens) { object, _ in object })
        let ids: [AnyHashable: Any] = [
            NSInsertedObjectIDsKey: Set(inserted.map(\.objectID)), NSUpdatedObjectIDsKey: Set(updated.map(\.objectID)),
            NSDeletedObjectIDsKey: Set(deleted.map(\.objectID)),
        ]
        NotificationCenter.default.post(name: .NSManagedObjectContextDidSaveObjectIDs, object: self,
                                        userInfo: ids.merging(tokens) { id, _ in id })
    }

    // MARK: Child save

    /// A child's save: the parent takes over the changes as its own unsaved changes.
    private func push(into parent: NSManagedObjectContext) throws -> [NSManagedObjectID] {
        let inserted = Array(insertedSet)
        let updated = Array(updatedObjects)
        let deleted = Array(deletedObjects)
        let insertedRows = inserted.map { ($0.objectID, $0.currentRow(version: 0), toManyIDs(of: $0, all: true), transientValues(of: $0, all: true)) }
        let updatedRows = updated.map { ($0.objectID, $0.currentRow(version: 0), $0.changedKeys, toManyIDs(of: $0, all: false), transientValues(of: $0, all: false)) }
        let deletedIDs = deleted.map(\.objectID)
        // The parent takes the changes over as a save, not as edits its undo manager records.
        parent.performAndWait { parent.withoutUndoRegistration {
            var created: [(NSManagedObject, RowSnapshot, [String: [NSManagedObjectID]], [(String, Any?)])] = []
            for (objectID, row, toMany, transients) in insertedRows {
                let objectClass = ManagedObjectClassRegistry.shared.objectClass(for: objectID.entity)
                let object = objectClass.init(_entity: objectID.entity, insertInto: nil)
                object.objectID = objectID
                parent.insert(object)
                created.append((object, row, toMany, transients))
            }
            for (object, row, toMany, transients) in created {
                parent.adopt(row, changedKeys: nil, toMany: toMany, transients: transients, into: object)
            }
            for (objectID, row, keys, toMany, transients) in updatedRows {
                parent.adopt(row, changedKeys: keys.names, toMany: toMany, transients: transients, into: parent.object(with: objectID))
            }
            for objectID in deletedIDs { parent.delete(parent.object(with: objectID)) }
            parent.processPendingChanges()
        } }
        let committedRows = Dictionary(uniqueKeysWithValues: zip(inserted, insertedRows).map { (ObjectIdentifier($0), $1.1) })
        return markSaved(inserted: inserted, updated: updated, deleted: deleted, committedRows: committedRows)
    }

    /// The members of the object's loaded, stored to-many relationships (all of them, or only
    /// the changed ones) as IDs, deleted members left out.
    func toManyIDs(of object: NSManagedObject, all: Bool) -> [String: [NSManagedObjectID]] {
        var result: [String: [NSManagedObjectID]] = [:]
        for relationship in object.entity.relationshipsByName.values where relationship.isToMany && !relationship.isTransient {
            guard all || object.changedKeys.contains(relationship.name), !object.isToManyFault(relationship.name) else { continue }
            result[relationship.name] = object.toManyMembers(forKey: relationship.name).objects.filter { !$0.deletedFlag }.map(\.objectID)
        }
        return result
    }

    /// The object's transient attribute values (all, or only the changed ones): a row holds no
    /// transient values, yet a child's save hands them to its parent, as on Apple platforms.
    private func transientValues(of object: NSManagedObject, all: Bool) -> [(String, Any?)] {
        object.propertyIndex.properties.compactMap { property in
            guard property.isTransient, property is NSAttributeDescription,
                  all || object.changedKeys.contains(property.name) else { return nil }
            let value = object.primitiveValue(forKey: property.name)
            // A new object's transient that was never set has nothing to hand over.
            return all && value == nil ? nil : (property.name, value)
        }
    }

    /// Applies a child's values to this context's object as ordinary changes.
    private func adopt(_ row: RowSnapshot, changedKeys: Set<String>?, toMany: [String: [NSManagedObjectID]],
                       transients: [(String, Any?)], into object: NSManagedObject) {
        for (name, value) in transients { object.setValue(value, forKey: name) }
        for property in object.entity.properties where !property.isTransient {
            guard changedKeys?.contains(property.name) ?? true else { continue }
            if let relationship = property as? NSRelationshipDescription {
                if relationship.isToMany {
                    if let ids = toMany[relationship.name] { object.setValue(NSOrderedSet(array: ids.map { self.object(with: $0) }), forKey: relationship.name) }
                } else {
                    object.setValue((row.values[relationship.name] as? NSManagedObjectID).map { self.object(with: $0) }, forKey: relationship.name)
                }
            } else {
                object.setValue(row.values[property.name], forKey: property.name)
            }
        }
    }
}
