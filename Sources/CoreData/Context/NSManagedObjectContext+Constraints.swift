/// Uniqueness constraints (`NSEntityDescription.uniquenessConstraints`), enforced when a
/// top-level context saves: objects being saved must not share constrained values with each other
/// or with a stored row. The context's merge policy resolves what it finds:
///
/// - `NSErrorMergePolicy`: the save throws 133021 listing `NSConstraintConflict`s; nothing changes.
/// - `NSMergeByPropertyObjectTrumpMergePolicy` (upsert): the stored row survives and takes the
///   properties the new object set; `NSOverwriteMergePolicy`: it takes all of the new object's
///   values. `NSMergeByPropertyStoreTrumpMergePolicy` and `NSRollbackMergePolicy`: it keeps its
///   own values and the new object's are dropped.
/// - In every case the new object merges into the survivor: if the context had not registered
///   the stored row, the new object itself takes over the row's identity (its `objectID` becomes
///   the row's); otherwise it is detached (`isDeleted`, no context) and relationships that
///   pointed at it point at the survivor. Members of its to-many relationships join the
///   survivor's.
/// - Several new objects with the same values: the first inserted survives; the later ones merge
///   into it as above (their values win under the object-trump and overwrite policies).
/// - An existing object edited into a collision never merges with another row: its edit of the
///   constrained properties is undone, whatever the (non-error) policy.
///
/// The check reads the store before the write transaction, so a row another process commits in
/// between is not seen; there is no database-level unique index as a safety net.
extension NSManagedObjectContext {
    /// A conflict found, with the stored row it involves and whether the check registered that
    /// row's object itself (so nothing else can point at it yet).
    struct FoundConstraintConflict {
        let conflict: NSConstraintConflict
        let storedRow: RowSnapshot?
        let databaseObjectIsNew: Bool
    }

    /// Finds and resolves constraint conflicts among the changes about to be written.
    func enforceUniquenessConstraints() throws {
        // Most models declare none: skip looking at every saved object.
        guard persistentStoreCoordinator?.managedObjectModel.entities.contains(where: { !$0.uniquenessConstraints.isEmpty }) == true else { return }
        let policy = (mergePolicy as? NSMergePolicy)?.mergeType ?? .errorMergePolicyType
        // Resolving can undo an edit back into another collision, so look again a few times.
        for _ in 0..<4 {
            let found = try findConstraintConflicts()
            if found.isEmpty { return }
            if policy == .errorMergePolicyType {
                for item in found where item.databaseObjectIsNew {
                    if let object = item.conflict.databaseObject { registered.removeValue(forKey: object.objectID) }
                }
                throw CoreDataError.make(NSManagedObjectConstraintMergeError,
                    "Could not save: \(found.count) uniqueness constraint conflict(s)",
                    [NSPersistentStoreSaveConflictsErrorKey: found.map(\.conflict)])
            }
            for item in found { resolve(item, policy: policy) }
            processPendingChanges()
        }
        if let first = try findConstraintConflicts().first {
            throw CoreDataError.make(NSManagedObjectConstraintMergeError,
                "Could not save: uniqueness constraint conflicts remain after merging",
                [NSPersistentStoreSaveConflictsErrorKey: [first.conflict]])
        }
    }

    // MARK: Finding

    /// One declared constraint: rows of `entity` and its subentities share it.
    private struct UniquenessConstraint {
        let entity: NSEntityDescription
        let names: [String]
        var identity: String { "\(ObjectIdentifier(entity).hashValue)|" + names.joined(separator: ",") }
    }

    /// Constraints that apply to `entity`: its own and those inherited from superentities.
    private static func uniquenessConstraints(of entity: NSEntityDescription) -> [UniquenessConstraint] {
        var result: [UniquenessConstraint] = []
        var current: NSEntityDescription? = entity
        while let declaring = current {
            for constraint in declaring.uniquenessConstraints {
                let names = constraint.compactMap { ($0 as? String) ?? ($0 as? NSPropertyDescription)?.name }
                if !names.isEmpty { result.append(UniquenessConstraint(entity: declaring, names: names)) }
            }
            current = declaring.superentity
        }
        return result
    }

    private func findConstraintConflicts() throws -> [FoundConstraintConflict] {
        var groups: [String: (UniquenessConstraint, [NSManagedObject])] = [:]
        let saving = insertedSet.filter { !$0.deletedFlag }.sorted { $0.insertionSerial < $1.insertionSerial }
        for object in Array(updatedObjects) + saving {
            for constraint in Self.uniquenessConstraints(of: object.entity) {
                // An unchanged stored object's values were unique when written.
                if !object.insertedFlag && object.changedKeys.isDisjoint(with: constraint.names) { continue }
                groups[constraint.identity, default: (constraint, [])].1.append(object)
            }
        }
        var found: [FoundConstraintConflict] = []
        let deletedIDs = Set(deletedSet.map(\.objectID))
        for (constraint, objects) in groups.values {
            var members: [[String]: [NSManagedObject]] = [:]
            var values: [[String]: [Any?]] = [:]
            var order: [[String]] = []
            for object in objects {
                let row = object.currentRow(version: 0)
                let tuple = constraint.names.map { row.values[$0] }
                let key = tuple.map(ConstraintValueKey.make)
                if members[key] == nil { order.append(key); values[key] = tuple }
                members[key, default: []].append(object)
            }
            let saved = Set(objects.map(\.objectID))
            let stored = try storedRows(for: constraint, matching: order.compactMap { values[$0] })
            for key in order {
                let conflicting = members[key] ?? []
                // Rows being saved with other values, or deleted by this save, no longer hold theirs.
                let row = stored[key]?.first { !saved.contains($0.objectID) && !deletedIDs.contains($0.objectID) }
                guard conflicting.count > 1 || row != nil else { continue }
                let isNew = row.map { registered[$0.objectID] == nil } ?? false
                let database = row.map { object(with: $0.objectID) }
                let conflict = NSConstraintConflict(constraint: constraint.names, database: database,
                    databaseSnapshot: row?.values, conflicting: conflicting,
                    conflictingSnapshots: conflicting.map { $0.snapshotForConflict() })
                found.append(FoundConstraintConflict(conflict: conflict, storedRow: row, databaseObjectIsNew: isNew))
            }
        }
        return found
    }

    /// Stored rows whose constrained values equal one of `tuples`, grouped by those values.
    ///
    /// One query per batch of values (an `IN` list for one property, `OR`ed conjunctions for
    /// several, kept short of SQLite's expression-depth limit).
    private func storedRows(for constraint: UniquenessConstraint, matching tuples: [[Any?]]) throws -> [[String]: [RowSnapshot]] {
        guard let coordinator = persistentStoreCoordinator else { throw noCoordinator() }
        // A temporary object ID cannot be in any stored row.
        let searchable = tuples.filter { tuple in !tuple.contains { ($0 as? NSManagedObjectID)?.isTemporaryID == true } }
        let store = try coordinator.store(for: constraint.entity)
        var result: [[String]: [RowSnapshot]] = [:]
        let batchSize = constraint.names.count == 1 ? 500 : 100
        var start = 0
        while start < searchable.count {
            let batch = searchable[start..<min(start + batchSize, searchable.count)]
            start += batchSize
            var fetch = StoreFetch(entity: constraint.entity)
            fetch.predicate = Self.predicate(constraint.names, batch)
            for row in try store.fetchRows(fetch) {
                let key = constraint.names.map { ConstraintValueKey.make(row.values[$0]) }
                result[key, default: []].append(row)
            }
        }
        return result
    }

    private static func predicate(_ names: [String], _ tuples: ArraySlice<[Any?]>) -> NSPredicate {
        func equals(_ name: String, _ value: Any?) -> NSPredicate {
            guard let value else { return NSPredicate(format: "%K == nil", name) }
            return NSPredicate(format: "%K == %@", name, value)
        }
        if names.count == 1 {
            let present = tuples.compactMap { $0[0] }
            var parts = present.isEmpty ? [] : [NSPredicate(format: "%K IN %@", names[0], present)]
            if present.count < tuples.count { parts.append(equals(names[0], nil)) }
            return NSCompoundPredicate(orPredicateWithSubpredicates: parts)
        }
        return NSCompoundPredicate(orPredicateWithSubpredicates: tuples.map { tuple in
            NSCompoundPredicate(andPredicateWithSubpredicates: zip(names, tuple).map { equals($0, $1) })
        })
    }

    // MARK: Resolving

    private func resolve(_ item: FoundConstraintConflict, policy: NSMergePolicyType) {
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
        registered[row.objectID] = object
        // The stored members stay members: the new object's join those already in the store.
        for relationship in object.entity.relationshipsByName.values where relationship.isToMany && !relationship.isTransient {
            let stored = (try? persistentStoreCoordinator?.store(for: row.objectID).relatedObjectIDs(relationship, of: row.objectID)) ?? []
            var members = object.isToManyFault(relationship.name) ? ToManyMembers() : object.toManyMembers(forKey: relationship.name)
            for id in stored { members.append(self.object(with: id)) }
            object.values[relationship.name] = members
        }
        object.changedKeys = kept.union(toManyChanged)
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
        for object in registered.values where object !== duplicate && !object.faultFlag {
            for relationship in object.entity.relationshipsByName.values {
                if relationship.isToMany {
                    guard var members = object.values[relationship.name] as? ToManyMembers, members.remove(duplicate) else { continue }
                    if relationship.inverseRelationship == nil { members.append(survivor) }
                    object.values[relationship.name] = members
                    object.noteChange(relationship.name)
                } else if object.values[relationship.name] as? NSManagedObject === duplicate {
                    object.values[relationship.name] = relationship.inverseRelationship == nil ? survivor : nil
                    object.noteChange(relationship.name)
                }
            }
        }
        registered.removeValue(forKey: duplicate.objectID)
        insertedSet.remove(duplicate)
        unprocessedInserted.remove(duplicate)
        changedSet.remove(duplicate)
        duplicate.insertedFlag = false
        duplicate.deletedFlag = true
        duplicate.changedKeys = []
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

extension NSManagedObject {
    /// The object's persistent values, for an `NSConstraintConflict`.
    func snapshotForConflict() -> [AnyHashable: Any] {
        var snapshot: [AnyHashable: Any] = [:]
        for (name, value) in currentRow(version: 0).values { snapshot[name] = value }
        return snapshot
    }
}

/// A constrained value as a string that is equal exactly when the stored values are, so values
/// read from the store and held in memory group together.
enum ConstraintValueKey {
    static func make(_ value: Any?) -> String {
        guard let value, !(value is NSNull) else { return "nil" }
        switch value {
        case let string as String: return "s" + string
        case let number as NSNumber: return "n" + number.stringValue
        case let date as Date: return "d\(date.timeIntervalSinceReferenceDate)"
        case let id as NSManagedObjectID: return "o" + id.uriRepresentation().absoluteString
        case let uuid as UUID: return "u" + uuid.uuidString
        case let data as Data: return "b" + data.base64EncodedString()
        case let url as URL: return "l" + url.absoluteString
        case let decimal as Decimal: return "m\(decimal)"
        default: return "x\(value)"
        }
    }
}
