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
/// - A nil constrained value conflicts with nothing, as NULLs in an SQLite unique index: any
///   number of objects may leave a constrained property (or one of several) nil.
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
                    if let object = item.conflict.databaseObject { registered.remove(object) }
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
    struct UniquenessConstraint {
        let entity: NSEntityDescription
        let names: [String]
        var identity: String { "\(ObjectIdentifier(entity).hashValue)|" + names.joined(separator: ",") }
    }

    /// Constraints that apply to `entity`: its own and those inherited from superentities.
    static func uniquenessConstraints(of entity: NSEntityDescription) -> [UniquenessConstraint] {
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
            var values: [[String]: [Any]] = [:]
            var order: [[String]] = []
            for object in objects {
                let row = object.currentRow(version: 0)
                guard let tuple = constraint.comparableTuple({ row.values[$0] }) else { continue }
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
                    databaseSnapshot: row?.values.dictionary, conflicting: conflicting,
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
    func storedRows(for constraint: UniquenessConstraint, matching tuples: [[Any]]) throws -> [[String]: [RowSnapshot]] {
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
            for row in try store.fetchRows(fetch, for: self) {
                let key = constraint.names.map { ConstraintValueKey.make(row.values[$0]) }
                result[key, default: []].append(row)
            }
        }
        return result
    }

    private static func predicate(_ names: [String], _ tuples: ArraySlice<[Any]>) -> NSPredicate {
        if names.count == 1 { return NSPredicate(format: "%K IN %@", names[0], tuples.map { $0[0] }) }
        return NSCompoundPredicate(orPredicateWithSubpredicates: tuples.map { tuple in
            NSCompoundPredicate(andPredicateWithSubpredicates: zip(names, tuple).map { NSPredicate(format: "%K == %@", $0, $1) })
        })
    }
}

extension NSManagedObjectContext.UniquenessConstraint {
    /// The constrained values of a row, or nil when one is nil: like NULL in a unique index, a
    /// nil value equals nothing, so such a row conflicts with no other.
    func comparableTuple(_ valueNamed: (String) -> Any?) -> [Any]? {
        var tuple: [Any] = []
        for name in names {
            guard let value = valueNamed(name), !(value is NSNull) else { return nil }
            tuple.append(value)
        }
        return tuple
    }
}

extension NSManagedObject {
    /// The object's persistent values, for an `NSConstraintConflict`.
    func snapshotForConflict() -> [AnyHashable: Any] {
        var snapshot: [AnyHashable: Any] = [:]
        for (name, value) in currentRow(version: 0).values.namedValues { snapshot[name] = value }
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
