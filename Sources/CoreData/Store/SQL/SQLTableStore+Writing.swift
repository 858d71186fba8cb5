/// The row writes of a save, the same on SQLite and PostgreSQL, every statement's text made
/// once per table or relationship: deletes one statement per entity, the keys bound as one
/// array; inserts and updates a statement per row on SQLite (a cached statement, stepped in
/// process) and one per table on PostgreSQL (the rows bound as one JSON record set, so a save
/// costs a round trip per table, not per row); to-many orders and join rows one statement per
/// changed relationship, the members bound as one ordered array.
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
                try delete(changes.deleted.map(\.objectID), session)
                if dialect.writesRecordSets {
                    try writeRecordSets(changes.updated.map(\.row), statement: \.updateRecordsStatement, session)
                    try writeRecordSets(changes.inserted, statement: \.insertRecordsStatement, session)
                } else {
                    for (row, _) in changes.updated { try update(row, session) }
                    for row in changes.inserted { try insert(row, session) }
                }
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
        try session.write(layout.insertStatement, values)
    }

    func update(_ row: RowSnapshot, _ session: Session) throws {
        let layout = layout(for: row.objectID.entity)
        var values: [SQLValue] = []
        values.reserveCapacity(layout.columns.count + 2)
        values.append(.integer(row.version))
        try layout.appendColumnValues(of: row, to: &values)
        values.append(.integer(row.objectID.primaryKey!))
        try session.write(layout.updateStatement, values)
    }

    /// `rows`, a table at a time, each table's rows bound as one record set to the layout's
    /// `statement` (an insert or an update of the whole set).
    private func writeRecordSets(_ rows: [RowSnapshot], statement: KeyPath<SQLTableLayout, String?>, _ session: Session) throws {
        guard !rows.isEmpty else { return }
        var sets: [ObjectIdentifier: (layout: SQLTableLayout, records: SQLRecordSet)] = [:]
        var values: [SQLValue] = []
        for row in rows {
            let layout = layout(for: row.objectID.entity)
            values.removeAll(keepingCapacity: true)
            values += [.integer(row.objectID.primaryKey!), .integer(Int64(row.objectID.entity.entityNumber)), .integer(row.version)]
            try layout.appendColumnValues(of: row, to: &values)
            sets[ObjectIdentifier(layout), default: (layout, SQLRecordSet(columns: layout.recordColumns))].records.append(values)
        }
        // Tables in name order, as the version check locks them.
        for (layout, records) in sets.values.sorted(by: { $0.layout.table < $1.layout.table }) {
            try session.write(layout[keyPath: statement]!, [records.bound])
        }
    }

    /// Deletes the rows of `ids` and their join-table rows, whichever side they are on: one
    /// statement per entity and join table.
    func delete(_ ids: [NSManagedObjectID], _ session: Session) throws {
        let groups = Dictionary(grouping: ids.filter { $0.primaryKey != nil }, by: { ObjectIdentifier($0.entity) })
        for group in groups.values {
            let entity = group[0].entity
            let keys = SQLValue.keyArray(group)
            try session.write(layout(for: entity).deleteKeysStatement, [keys])
            for case let relationship as NSRelationshipDescription in entity.properties where relationship.isToMany {
                if let joinRows = catalog.toManyStatements(of: relationship).deleteJoinRows { try session.write(joinRows, [keys]) }
            }
        }
    }

    /// One-to-many membership is stored in the destination rows' foreign keys (written with the
    /// rows); here only orders and many-to-many join rows are written.
    func writeToMany(_ change: ToManyChange, _ session: Session) throws {
        guard let sourceKey = change.source.primaryKey else { return }
        let statements = catalog.toManyStatements(of: change.relationship)
        let members = SQLValue.keyArray(change.members)
        if let order = statements.updateOrder { try session.write(order, [members]) }
        // Both sides of a many-to-many change together; one side writes the shared table
        // (`insertJoinRows` is nil on the other).
        guard let insert = statements.insertJoinRows, let delete = statements.deleteJoinRows else { return }
        let source = SQLValue.text("[\(sourceKey)]")
        try session.write(delete, [source])
        // The source's rows were just deleted and members are distinct: plain inserts.
        try session.write(insert, [.integer(sourceKey), members])
    }
}
