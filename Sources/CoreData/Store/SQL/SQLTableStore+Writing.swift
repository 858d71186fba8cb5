/// The row writes of a save, the same on SQLite and PostgreSQL: one statement per row, built
/// once per table (`SQLTableLayout`), and the to-many rows that live apart from the rows.
extension SQLTableStore {
    /// A save, in one write transaction: versions checked, history recorded, metadata from
    /// `setMetadata(_:for:)` written, then the rows. Rows deleted or changed go before rows
    /// inserted, so that a value they free under a uniqueness constraint (a unique index, on
    /// PostgreSQL, checks each statement) can be taken by an insert of the same save.
    func apply(_ changes: StoreChanges) throws {
        guard !changes.isEmpty else { return }
        // The store's lock (recursive, also taken by `writeTransaction`) covers the pending
        // metadata from read to reset, as `setMetadata(_:for:)` sets it under the same lock.
        try locked {
            try writeTransaction { session in
                try checkVersions(changes, session)
                try recordHistory(of: changes, session)
                if let pendingMetadata { try SQLModelCache.write(metadata: pendingMetadata, on: session) }
                for (objectID, _) in changes.deleted { try delete(objectID, session) }
                for (row, _) in changes.updated { try update(row, session) }
                for row in changes.inserted { try insert(row, session) }
                for change in changes.toMany { try writeToMany(change, session) }
            }
            pendingMetadata = nil
        }
    }

    func insert(_ row: RowSnapshot, _ session: Session) throws {
        let layout = layout(for: row.objectID.entity)
        var values: [SQLValue] = []
        values.reserveCapacity(layout.columns.count + 3)
        values += [.integer(row.objectID.primaryKey!), .integer(Int64(row.objectID.entity.entityNumber)), .integer(row.version)]
        try layout.appendColumnValues(of: row, to: &values)
        try session.run(layout.insertStatement, values)
    }

    func update(_ row: RowSnapshot, _ session: Session) throws {
        let layout = layout(for: row.objectID.entity)
        var values: [SQLValue] = []
        values.reserveCapacity(layout.columns.count + 2)
        values.append(.integer(row.version))
        try layout.appendColumnValues(of: row, to: &values)
        values.append(.integer(row.objectID.primaryKey!))
        try session.run(layout.updateStatement, values)
    }

    func delete(_ objectID: NSManagedObjectID, _ session: Session) throws {
        guard let key = objectID.primaryKey else { return }
        try session.run(layout(for: objectID.entity).deleteStatement, [.integer(key)])
        // Join-table rows of a deleted object go with it, whichever side it is on.
        for case let relationship as NSRelationshipDescription in objectID.entity.properties where relationship.isToMany {
            if case .joinTable(let table, let sourceColumn, _, _) = SQLiteSchema.storage(of: relationship) {
                try session.run("DELETE FROM \(table) WHERE \(sourceColumn) = \(dialect.placeholder(1))", [.integer(key)])
            }
        }
    }

    /// One-to-many membership is stored in the destination rows' foreign keys (written with the
    /// rows); here only orders and many-to-many join rows are written.
    func writeToMany(_ change: ToManyChange, _ session: Session) throws {
        guard let sourceKey = change.source.primaryKey else { return }
        let (first, second, third) = (dialect.placeholder(1), dialect.placeholder(2), dialect.placeholder(3))
        switch SQLiteSchema.storage(of: change.relationship) {
        case .inverseForeignKey(let table, _, let order?):
            for (position, member) in change.members.enumerated() {
                try session.run("UPDATE \(table) SET \(order) = \(first) WHERE Z_PK = \(second)", [.integer(Int64(position + 1)), .integer(member.primaryKey ?? -1)])
            }
        case .inverseForeignKey(_, _, nil):
            return
        case .joinTable(let table, let sourceColumn, let destinationColumn, let order):
            // Both sides of a many-to-many change together; one side writes the shared table.
            guard SQLiteSchema.writesJoinTable(change.relationship) else { return }
            try session.run("DELETE FROM \(table) WHERE \(sourceColumn) = \(first)", [.integer(sourceKey)])
            // The source's rows were just deleted and members are distinct: plain inserts.
            for (position, member) in change.members.enumerated() {
                if let order {
                    try session.run("INSERT INTO \(table) (\(sourceColumn), \(destinationColumn), \(order)) VALUES (\(first), \(second), \(third))",
                                    [.integer(sourceKey), .integer(member.primaryKey ?? -1), .integer(Int64(position + 1))])
                } else {
                    try session.run("INSERT INTO \(table) (\(sourceColumn), \(destinationColumn)) VALUES (\(first), \(second))",
                                    [.integer(sourceKey), .integer(member.primaryKey ?? -1)])
                }
            }
        }
    }
}
