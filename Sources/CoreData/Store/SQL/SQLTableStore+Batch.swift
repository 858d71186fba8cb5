/// Batch requests run as single SQL statements inside one transaction, so a failure leaves the
/// store unchanged and no object is loaded.
extension SQLTableStore {
    func batchUpdate(_ fetch: StoreFetch, assignments: [BatchAssignment], returningObjectIDs: Bool, origin: TransactionOrigin) throws -> BatchUpdateOutcome {
        try writeTransaction { connection in
            var unsorted = fetch
            unsorted.sortDescriptors = []
            let layout = layout(for: fetch.entity)
            var ids: [NSManagedObjectID] = []
            if returningObjectIDs || tracksHistory {
                let plan = try SQLFetchPlan(fetch: unsorted, dialect: dialect)
                try connection.query(plan.sql(selecting: "t0.Z_PK, t0.Z_ENT"), plan.bindings) { (row: Session.Row) in
                    ids.append(objectID(for: entity(number: row.int64(at: 1), fallback: fetch.entity), primaryKey: row.int64(at: 0)))
                }
            }
            let update = try BatchUpdateStatement(fetch: unsorted, table: layout.table, assignments: assignments, dialect: dialect)
            let changed = try connection.run(update.sql, update.bindings)
            let properties = Set(assignments.map(\.attribute.name))
            try recordHistory(ids.map { HistoryRecord(type: .update, objectID: $0, properties: properties) }, origin: origin, connection)
            return BatchUpdateOutcome(count: changed, objectIDs: returningObjectIDs ? ids : [])
        }
    }

    /// Deletes `ids` and what their cascade rules reach, in waves: each wave applies the delete
    /// rules of all its rows with one statement per relationship, then clears the to-one
    /// references to them and deletes them and their join-table rows, one statement per table.
    /// Keys travel as one bound JSON array, so the statement count follows the model, not the
    /// number of rows (a per-row walk ran several statements a row).
    ///
    /// Every rule of a wave is checked before any of its rows goes: a deny rule refuses (1600)
    /// when a destination exists, even one the same request deletes.
    func batchDelete(_ ids: [NSManagedObjectID], origin: TransactionOrigin) throws {
        try writeTransaction { connection in
            var deleted = Set<NSManagedObjectID>()
            var history: [HistoryRecord] = []
            var wave = ids
            while !wave.isEmpty {
                let fresh = wave.filter { $0.primaryKey != nil && deleted.insert($0).inserted }
                let groups = Dictionary(grouping: fresh, by: { ObjectIdentifier($0.entity) })
                    .values.map { (entity: $0[0].entity, keys: SQLValue.keyArray($0)) }
                var cascaded: [NSManagedObjectID] = []
                for (entity, keys) in groups {
                    for relationship in entity.relationshipsByName.values
                    where relationship.deleteRule == .denyDeleteRule || relationship.deleteRule == .cascadeDeleteRule {
                        let targets = try destinations(of: relationship, from: keys, connection)
                        if relationship.deleteRule == .cascadeDeleteRule {
                            cascaded += targets
                        } else if !targets.isEmpty {
                            throw CoreDataError.make(NSValidationRelationshipDeniedDeleteError,
                                "Batch delete refused: \(entity.name ?? "").\(relationship.name) has destinations (deny rule)")
                        }
                    }
                }
                history += try deletionRecords(fresh)
                for (entity, keys) in groups { try deleteRows(of: entity, keys: keys, connection) }
                wave = cascaded
            }
            try recordHistory(history, origin: origin, connection)
        }
    }

    /// `DELETE ... WHERE Z_PK IN (<the fetch's keys>)`, or `DELETE FROM <table>` when the fetch
    /// covers the whole table: what `DELETE FROM` in plain SQL costs, for the common case of
    /// rows nothing else points at. Declines (nil) when a cascade or deny rule, a to-one column
    /// of any table pointing at these entities, or a join table would need the deleted keys.
    func batchDeleteAtOnce(_ fetch: StoreFetch) throws -> Int? {
        // History records each deleted object.
        if tracksHistory { return nil }
        let entities = fetch.includesSubentities ? fetch.entity.selfAndDescendants : [fetch.entity]
        let model = fetch.entity.managedObjectModel.entities
        for entity in entities {
            for relationship in entity.relationshipsByName.values {
                if relationship.deleteRule == .cascadeDeleteRule || relationship.deleteRule == .denyDeleteRule { return nil }
                if relationship.isToMany, case .joinTable = SQLiteSchema.storage(of: relationship) { return nil }
            }
        }
        let pointedAt = model.contains { referring in
            referring.relationshipsByName.values.contains { relationship in
                !relationship.isToMany && (relationship.destinationEntity.map { destination in entities.contains { $0 === destination || $0.isKindOf(entity: destination) } } ?? false)
            }
        }
        if pointedAt { return nil }
        let layout = layout(for: fetch.entity)
        let plan = try SQLFetchPlan(fetch: fetch, dialect: dialect)
        // Rows ordered in Swift cannot be paged inside one DELETE.
        if plan.swiftOrder != nil { return nil }
        return try writeTransaction { connection in
            if plan.coversWholeTable { return try connection.run("DELETE FROM \(layout.table)", []) }
            return try connection.run("DELETE FROM \(layout.table) WHERE Z_PK IN (\(plan.sql(selecting: "t0.Z_PK")))", plan.bindings)
        }
    }

    /// The destinations of `relationship` from the rows whose keys `keys` holds.
    private func destinations(of relationship: NSRelationshipDescription, from keys: SQLValue, _ connection: Session) throws -> [NSManagedObjectID] {
        guard let destination = relationship.destinationEntity else { return [] }
        let keyList = dialect.keyList(dialect.placeholder(1))
        let sql: String
        if !relationship.isToMany {
            let column = SQLiteSchema.column(for: relationship)
            sql = "SELECT d.Z_PK, d.Z_ENT FROM \(SQLiteSchema.table(for: relationship.entity)) t0 JOIN \(SQLiteSchema.table(for: destination)) d ON d.Z_PK = t0.\(column) WHERE t0.Z_PK IN \(keyList)"
        } else {
            switch SQLiteSchema.storage(of: relationship) {
            case .inverseForeignKey(let table, let column, _):
                sql = "SELECT Z_PK, Z_ENT FROM \(table) WHERE \(column) IN \(keyList)"
            case .joinTable(let table, let sourceColumn, let destinationColumn, _):
                sql = "SELECT d.Z_PK, d.Z_ENT FROM \(table) j JOIN \(SQLiteSchema.table(for: destination)) d ON d.Z_PK = j.\(destinationColumn) WHERE j.\(sourceColumn) IN \(keyList)"
            }
        }
        var targets: [NSManagedObjectID] = []
        try connection.query(sql, [keys]) { (row: Session.Row) in
            targets.append(objectID(for: entity(number: row.int64(at: 1), fallback: destination), primaryKey: row.int64(at: 0)))
        }
        return targets
    }

    /// Clears every to-one reference to the rows (bumping the referring rows' versions), then
    /// deletes the rows and their join-table rows.
    private func deleteRows(of entity: NSEntityDescription, keys: SQLValue, _ connection: Session) throws {
        let keyList = dialect.keyList(dialect.placeholder(1))
        for referring in entity.managedObjectModel.entities {
            for case let relationship as NSRelationshipDescription in referring.properties
            where relationship.entity === referring && !relationship.isToMany && relationship.destinationEntity.map(entity.isKindOf(entity:)) == true {
                let column = SQLiteSchema.column(for: relationship)
                try connection.write("UPDATE \(SQLiteSchema.table(for: referring)) SET \(column) = NULL, Z_OPT = Z_OPT + 1 WHERE \(column) IN \(keyList)", [keys])
            }
        }
        for case let relationship as NSRelationshipDescription in entity.properties where relationship.isToMany {
            if case .joinTable(let table, let sourceColumn, _, _) = SQLiteSchema.storage(of: relationship) {
                try connection.write("DELETE FROM \(table) WHERE \(sourceColumn) IN \(keyList)", [keys])
            }
        }
        try connection.write("DELETE FROM \(layout(for: entity).table) WHERE Z_PK IN \(keyList)", [keys])
    }
}
