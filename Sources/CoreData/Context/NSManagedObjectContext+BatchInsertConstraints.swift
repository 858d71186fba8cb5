/// Uniqueness constraints under a batch insert, resolved with the context's merge policy as a
/// save resolves them (see `NSManagedObjectContext+Constraints.swift`), but on rows, not objects:
///
/// - `NSErrorMergePolicy`: a row that shares constrained values with a stored row or with an
///   earlier row of the request makes the request throw 133021; nothing is written.
/// - `NSMergeByPropertyObjectTrumpMergePolicy` (upsert): the stored row stays and takes the values
///   the request's row names; `NSOverwriteMergePolicy`: it takes all of the row's values,
///   defaults included. Between rows of one request the later one wins the same way.
/// - `NSMergeByPropertyStoreTrumpMergePolicy` and `NSRollbackMergePolicy`: the stored (or
///   earlier) row stays as it is and the new one is dropped.
/// - A nil constrained value conflicts with nothing.
///
/// So re-importing an overlapping feed under object trump updates the rows it already holds and
/// adds only the new ones.
extension NSManagedObjectContext {
    /// A batch insert's rows sorted into what to write.
    struct BatchInsertPlan {
        /// New rows' values, in request order.
        var inserts: [[String: Any]] = []
        /// Stored rows the request updates, with their new values.
        var updates: [(stored: RowSnapshot, values: [String: Any])] = []
    }

    /// Resolves `rows` (checked values, each with the keys its dictionary named) against the
    /// entity's uniqueness constraints: one query per batch of constrained values, O(n) besides.
    func planBatchInsert(_ rows: [(values: [String: Any], named: Set<String>)],
                         into entity: NSEntityDescription) throws -> BatchInsertPlan {
        let constraints = Self.uniquenessConstraints(of: entity)
        guard !constraints.isEmpty else { return BatchInsertPlan(inserts: rows.map(\.values)) }
        let policy = (mergePolicy as? NSMergePolicy)?.mergeType ?? .errorMergePolicyType
        var conflicts: [NSConstraintConflict] = []

        // Rows of the request sharing values: merge each later one into the first.
        var survivors: [(values: [String: Any], named: Set<String>)] = []
        var firstByKey: [String: Int] = [:]
        for row in rows {
            let keys = constraints.compactMap { constraint in
                constraint.comparableTuple({ row.values[$0] }).map {
                    (constraint, constraint.identity + "|" + $0.map(ConstraintValueKey.make).joined(separator: "|"))
                }
            }
            guard let (constraint, earlier) = keys.lazy.compactMap({ pair in firstByKey[pair.1].map { (pair.0, $0) } }).first else {
                for (_, key) in keys { firstByKey[key] = survivors.count }
                survivors.append(row)
                continue
            }
            if policy == .errorMergePolicyType {
                conflicts.append(Self.conflict(constraint, row.values, database: survivors[earlier].values))
            } else {
                survivors[earlier].values = Self.merge(row, over: survivors[earlier].values, policy: policy)
                survivors[earlier].named.formUnion(row.named)
            }
        }

        // Rows matching stored ones.
        var plan = BatchInsertPlan()
        var matched: [Int: (row: RowSnapshot, constraint: UniquenessConstraint)] = [:]
        for constraint in constraints {
            let tuples = survivors.indices.compactMap { index in
                matched[index] == nil ? constraint.comparableTuple({ survivors[index].values[$0] }).map { (index, $0) } : nil
            }
            let stored = try storedRows(for: constraint, matching: tuples.map(\.1))
            for (index, tuple) in tuples {
                if let row = stored[tuple.map(ConstraintValueKey.make)]?.first { matched[index] = (row, constraint) }
            }
        }
        var updatedIDs = Set<NSManagedObjectID>()
        for (index, row) in survivors.enumerated() {
            guard let (stored, constraint) = matched[index] else {
                plan.inserts.append(row.values)
                continue
            }
            switch policy {
            case .errorMergePolicyType:
                conflicts.append(Self.conflict(constraint, row.values, database: stored.values.dictionary))
            case .mergeByPropertyObjectTrumpMergePolicyType, .overwriteMergePolicyType:
                // Two rows of the request reaching one stored row through different constraints:
                // the first keeps it, as the first of duplicate objects survives a save.
                guard updatedIDs.insert(stored.objectID).inserted else { continue }
                plan.updates.append((stored, Self.merge(row, over: stored.values.dictionary, policy: policy)))
            case .mergeByPropertyStoreTrumpMergePolicyType, .rollbackMergePolicyType:
                continue
            }
        }
        if !conflicts.isEmpty {
            throw CoreDataError.make(NSManagedObjectConstraintMergeError,
                "Batch insert into \(entity.name ?? ""): \(conflicts.count) uniqueness constraint conflict(s)",
                [NSPersistentStoreSaveConflictsErrorKey: conflicts])
        }
        return plan
    }

    /// `row`'s values laid over `existing`: only the keys its dictionary named under object
    /// trump, every value it has (defaults included) under overwrite.
    private static func merge(_ row: (values: [String: Any], named: Set<String>), over existing: [String: Any],
                              policy: NSMergePolicyType) -> [String: Any] {
        var merged = existing
        for (key, value) in row.values where policy == .overwriteMergePolicyType || row.named.contains(key) {
            merged[key] = value
        }
        return merged
    }

    /// A conflict of a request's row (no object exists for it) with a stored or earlier row.
    private static func conflict(_ constraint: UniquenessConstraint, _ values: [String: Any], database: [String: Any]) -> NSConstraintConflict {
        NSConstraintConflict(constraint: constraint.names, database: nil, databaseSnapshot: database,
                             conflicting: [], conflictingSnapshots: [values as [AnyHashable: Any]])
    }
}
