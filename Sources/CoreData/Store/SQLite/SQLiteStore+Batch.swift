/// Batch requests run as single SQL statements inside one transaction, so a failure leaves the
/// store unchanged and no object is loaded.
extension SQLiteStore: BatchExecuting {
    func batchUpdate(_ fetch: StoreFetch, assignments: [BatchAssignment], returningObjectIDs: Bool) throws -> BatchUpdateOutcome {
        try writeTransaction { connection in
            var unsorted = fetch
            unsorted.sortDescriptors = []
            let layout = layout(for: fetch.entity)
            var ids: [NSManagedObjectID] = []
            if returningObjectIDs {
                let plan = try SQLiteFetchPlan(fetch: unsorted, layout: layout)
                try connection.query(plan.sql(selecting: "t0.Z_PK, t0.Z_ENT"), plan.bindings) { row in
                    ids.append(objectID(for: entity(number: row.int64(at: 1), fallback: fetch.entity), primaryKey: row.int64(at: 0)))
                }
            }
            let update = try BatchUpdateStatement(fetch: unsorted, table: layout.table, assignments: assignments)
            let changed = try connection.run(update.sql, update.bindings)
            return BatchUpdateOutcome(count: changed, objectIDs: ids)
        }
    }

    func batchDelete(_ ids: [NSManagedObjectID]) throws {
        try writeTransaction { connection in
            var pending = ids
            var deleted = Set<NSManagedObjectID>()
            while let id = pending.popLast() {
                guard deleted.insert(id).inserted, let key = id.primaryKey else { continue }
                pending += try relatedForDeletion(id, key: key, connection: connection)
                try delete(id, connection)
            }
        }
    }

    /// Applies the delete rules of one row: returns cascade targets, clears nullified references,
    /// and refuses (1600) when a deny-rule relationship still has destinations. Deleting the
    /// row and its join-table rows is `delete(_:_:)`'s work, as in a save.
    private func relatedForDeletion(_ id: NSManagedObjectID, key: Int64, connection: SQLiteConnection) throws -> [NSManagedObjectID] {
        var cascade: [NSManagedObjectID] = []
        let relationships = id.entity.relationshipsByName.values
        // To-one destinations are foreign keys of the row itself: read it once.
        let row = relationships.contains { !$0.isToMany } ? try rows(for: [id])[id] : nil
        for relationship in relationships {
            let targets = try relationship.isToMany
                ? relatedObjectIDs(relationship, of: id)
                : (row?.values[relationship.name] as? NSManagedObjectID).map { [$0] } ?? []
            switch relationship.deleteRule {
            case .denyDeleteRule where !targets.isEmpty:
                throw CoreDataError.make(NSValidationRelationshipDeniedDeleteError,
                    "Batch delete refused: \(id.entity.name ?? "").\(relationship.name) has destinations (deny rule)")
            case .cascadeDeleteRule:
                cascade += targets
            default:
                break
            }
        }
        // Whatever pointed at the row through a to-one foreign key now points at nothing.
        for entity in id.entity.managedObjectModel.entities {
            for case let relationship as NSRelationshipDescription in entity.properties
            where relationship.entity === entity && !relationship.isToMany && relationship.destinationEntity.map(id.entity.isKindOf(entity:)) == true {
                try connection.run("UPDATE \(SQLiteSchema.table(for: entity)) SET \(SQLiteSchema.column(for: relationship)) = NULL, Z_OPT = Z_OPT + 1 WHERE \(SQLiteSchema.column(for: relationship)) = ?", [.integer(key)])
            }
        }
        return cascade
    }

    func batchInsert(_ rows: [RowSnapshot]) throws {
        try writeTransaction { connection in
            for row in rows { try insert(row, connection) }
        }
    }
}
