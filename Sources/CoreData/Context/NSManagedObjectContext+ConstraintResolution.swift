/// Resolving uniqueness-constraint conflicts by merge policy (the rules are listed at the top of
/// `NSManagedObjectContext+Constraints.swift`): one survivor per conflict, the new duplicates
/// folded into it, existing objects' colliding edits undone.
extension NSManagedObjectContext {
    func resolve(_ item: FoundConstraintConflict, policy: NSMergePolicyType) {
        let conflict = item.conflict
        // An object merged away by an earlier conflict (another constraint) is gone already.
        let objects = conflict.conflictingObjects.filter { $0.managedObjectContext === self && !$0.deletedFlag }
        var inserted = objects.filter(\.insertedFlag)
        var updated = objects.filter { !$0.insertedFlag }
        let survivor: NSManagedObject
        if let row = item.storedRow, let database = conflict.databaseObject {
            if item.databaseObjectIsNew, !inserted.isEmpty {
                registered.removeValue(forKey: row.objectID)
                database.managedObjectContext = nil
                survivor = inserted.removeFirst()
                takeOver(row, with: survivor, policy: policy)
            } else {
                survivor = database
            }
        } else if !updated.isEmpty {
            survivor = updated.removeFirst()
        } else if !inserted.isEmpty {
            survivor = inserted.removeFirst()
        } else {
            return
        }
        for object in updated { undoConstrainedEdit(of: object, names: conflict.constraint) }
        for object in inserted { merge(object, into: survivor, policy: policy) }
    }

    /// Persistent attributes and to-one relationships that `policy` copies from a new object
    /// onto the object it merges into.
    private static func winningKeys(of object: NSManagedObject, policy: NSMergePolicyType) -> [String] {
        let candidates = object.entity.properties.filter { property in
            !property.isTransient && !((property as? NSRelationshipDescription)?.isToMany ?? false)
        }.map(\.name)
        switch policy {
        case .overwriteMergePolicyType: return candidates
        case .mergeByPropertyObjectTrumpMergePolicyType: return candidates.filter(object.changedKeys.contains)
        default: return []
        }
    }

    /// Turns a new object into the object of a stored row it duplicates: same instance, the row's
    /// identity, the stored values except those `policy` lets the new object keep.
    private func takeOver(_ row: RowSnapshot, with object: NSManagedObject, policy: NSMergePolicyType) {
        let kept = Set(Self.winningKeys(of: object, policy: policy))
        // Values first, while the object is still new, so inverse relationships follow.
        for property in object.entity.properties where !property.isTransient && !kept.contains(property.name) {
            if let relationship = property as? NSRelationshipDescription {
                if relationship.isToMany { continue }
                let target = (row.values[property.name] as? NSManagedObjectID).map { self.object(with: $0) }
                object.setToOne(target, forKey: property.name, maintainingInverse: true)
            } else {
                object.values[property.name] = row.values[property.name]
            }
        }
        let toManyChanged = object.changedKeys.filter { object.entity.relationshipsByName[$0]?.isToMany == true }
        let temporaryID = object.objectID
        registered.removeValue(forKey: temporaryID)
        insertedSet.remove(object)
        unprocessedInserted.remove(object)
        propagateToChildren([temporaryID: row.objectID])
        object.objectID = row.objectID
        object.insertedFlag = false
        object.committed = row
        registered.insert(object)
        renameDestinations([temporaryID.name.key: row.objectID])
        // The stored members stay members: the new object's join those already in the store.
        for relationship in object.entity.relationshipsByName.values where relationship.isToMany && !relationship.isTransient {
            let stored = (try? persistentStoreCoordinator?.store(for: row.objectID).relatedObjectIDs(relationship, of: row.objectID, for: self)) ?? []
            let members = object.isToManyFault(relationship.name) ? ToManyMembers() : object.toManyMembers(forKey: relationship.name)
            for id in stored { members.append(self.object(with: id)) }
            object.values[relationship.name] = members
        }
        object.changedKeys.replace(with: kept.union(toManyChanged))
        if policy == .overwriteMergePolicyType {
            object.changedKeys.formUnion(object.entity.attributesByName.values.filter { !$0.isTransient }.map(\.name))
        }
        if !object.changedKeys.isEmpty {
            changedSet.insert(object)
            unprocessedUpdated.insert(object)
        }
    }

    /// Folds a new duplicate into `survivor` and detaches it from the context.
    private func merge(_ duplicate: NSManagedObject, into survivor: NSManagedObject, policy: NSMergePolicyType) {
        for name in Self.winningKeys(of: duplicate, policy: policy) {
            survivor.setValue(duplicate.value(forKey: name), forKey: name)
        }
        for relationship in duplicate.entity.relationshipsByName.values where relationship.isToMany && !relationship.isTransient {
            for member in duplicate.toManyMembers(forKey: relationship.name).objects where !member.deletedFlag {
                survivor.addToMany(member, forKey: relationship.name, at: nil)
            }
        }
        // What still points at the duplicate: inverse sides already moved above are dropped,
        // one-way references are re-pointed.
        for object in registered.objects where object !== duplicate && !object.faultFlag {
            for relationship in object.entity.relationshipsByName.values {
                if relationship.isToMany {
                    guard let members = object.values[relationship.name] as? ToManyMembers, members.remove(duplicate) else { continue }
                    if relationship.inverseRelationship == nil { members.append(survivor) }
                    object.noteChange(relationship.name)
                } else if let ordinal = object.propertyIndex.ordinals[relationship.name], object.slot(object.values[ordinal: ordinal], names: duplicate) {
                    object.values[ordinal: ordinal] = relationship.inverseRelationship == nil ? object.toOneSlot(for: survivor) : nil
                    object.noteChange(relationship.name)
                }
            }
        }
        registered.remove(duplicate)
        insertedSet.remove(duplicate)
        unprocessedInserted.remove(duplicate)
        changedSet.remove(duplicate)
        duplicate.insertedFlag = false
        duplicate.deletedFlag = true
        duplicate.changedKeys.removeAll()
        duplicate.managedObjectContext = nil
    }

    /// Puts an existing object's constrained properties back to their stored values.
    private func undoConstrainedEdit(of object: NSManagedObject, names: [String]) {
        guard let committed = object.committed else { return }
        for name in names where object.changedKeys.contains(name) {
            take(name, from: committed, into: object)
            object.changedKeys.remove(name)
        }
        if object.changedKeys.isEmpty { changedSet.remove(object) }
    }
}
