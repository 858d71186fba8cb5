/// Optimistic-locking conflicts: rows another context or process saved since this context read
/// them, resolved by the context's merge policy.
extension NSManagedObjectContext {
    func resolve(_ conflict: StoreVersionConflict) throws -> SaveAttempt {
        let policy = (mergePolicy as? NSMergePolicy)?.mergeType ?? .errorMergePolicyType
        let objects = conflict.conflicts.compactMap { entry in registered[entry.objectID].map { ($0, entry.storedRow) } }
        if policy == .errorMergePolicyType {
            let conflicts = objects.map { object, stored in
                NSMergeConflict(source: object, objectSnapshot: object.dictionaryWithValues(forKeys: Array(object.changedKeys)),
                                cachedSnapshot: object.committed?.values.dictionary, persistedSnapshot: stored?.values.dictionary,
                                newVersion: Int(stored?.version ?? 0), oldVersion: Int(object.committed?.version ?? 0))
            }
            throw CoreDataError.make(NSManagedObjectMergeError,
                "Could not merge changes: \(conflicts.count) object(s) changed in the store since they were read",
                [NSPersistentStoreSaveConflictsErrorKey: conflicts])
        }
        for (object, stored) in objects {
            guard let stored else {
                // The row was deleted elsewhere: the object goes too, whatever the policy.
                forget(object)
                continue
            }
            let committed = object.committed?.values
            for property in object.entity.properties where !property.isTransient {
                if let relationship = property as? NSRelationshipDescription, relationship.isToMany { continue }
                let name = property.name
                let changedHere = object.changedKeys.contains(name)
                let changedThere = !StoredValue.equal(stored.values[name], committed?[name])
                let storeWins: Bool
                switch policy {
                case .rollbackMergePolicyType: storeWins = true
                case .overwriteMergePolicyType: storeWins = false
                case .mergeByPropertyStoreTrumpMergePolicyType: storeWins = !changedHere || changedThere
                default: storeWins = !changedHere
                }
                if storeWins {
                    take(name, from: stored, into: object)
                    object.changedKeys.remove(name)
                }
            }
            object.committed = stored
            if object.changedKeys.isEmpty { changedSet.remove(object) }
        }
        return try storeChanges()
    }

    /// Replaces one property's value with the stored one, without recording a change.
    func take(_ name: String, from row: RowSnapshot, into object: NSManagedObject) {
        object.values[name] = row.values[name]
    }

    /// Drops an object from the context entirely, as when its row vanished.
    func forget(_ object: NSManagedObject) {
        registered.remove(object)
        insertedSet.remove(object)
        deletedSet.remove(object)
        changedSet.remove(object)
        object.takeReadAheadRow(in: self)
        object.deletedFlag = true
        object.changedKeys.removeAll()
    }
}
