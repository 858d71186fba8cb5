/// Batch requests over the in-memory rows, all-or-nothing like the SQLite store's.
extension InMemoryStore {
    func batchUpdate(_ fetch: StoreFetch, assignments: [BatchAssignment], returningObjectIDs: Bool, origin _: TransactionOrigin) throws -> BatchUpdateOutcome {
        try locked {
            for assignment in assignments where assignment.value != nil && !ManagedValueTypeCheck.accepts(assignment.value!, for: assignment.attribute) {
                throw CoreDataError.make(NSManagedObjectValidationError, "\(assignment.attribute.name) cannot hold \(assignment.value!)")
            }
            let matches = try table.fetchRows(fetch)
            for var row in matches {
                let view = InMemoryRowView(row: row, table: table)
                for assignment in assignments {
                    row.values[assignment.attribute.name] = try assignment.expression.map { expression in
                        // The values the row had before this update, as SQL's UPDATE reads them.
                        DictionaryValueCoercion.coerce(ConstantValue(any: try PredicateEvaluator.evaluate(expression, view)), to: assignment.attribute.attributeType)
                    } ?? assignment.value
                }
                row.version += 1
                table.store(row)
            }
            return BatchUpdateOutcome(count: matches.count, objectIDs: returningObjectIDs ? matches.map(\.objectID) : [])
        }
    }

    /// The in-memory store always deletes by keys: it has no statement to run at once.
    func batchDeleteAtOnce(_ fetch: StoreFetch) throws -> Int? { nil }

    func batchDelete(_ ids: [NSManagedObjectID], origin _: TransactionOrigin) throws {
        try locked {
            var pending = ids
            var doomed: [NSManagedObjectID] = []
            while let id = pending.popLast() {
                guard !doomed.contains(id), table.row(for: id) != nil else { continue }
                doomed.append(id)
                for relationship in id.entity.relationshipsByName.values {
                    let targets = relationship.isToMany
                        ? table.relatedObjectIDs(relationship, of: id)
                        : (table.row(for: id)?.values[relationship.name] as? NSManagedObjectID).map { [$0] } ?? []
                    if relationship.deleteRule == .denyDeleteRule, !targets.isEmpty {
                        throw CoreDataError.make(NSValidationRelationshipDeniedDeleteError,
                            "Batch delete refused: \(id.entity.name ?? "").\(relationship.name) has destinations (deny rule)")
                    }
                    if relationship.deleteRule == .cascadeDeleteRule { pending += targets }
                }
            }
            for id in doomed { table.remove(id) }
        }
    }
}
