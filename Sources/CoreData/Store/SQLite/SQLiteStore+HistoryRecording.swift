/// Recording persistent history: each save and batch request writes one `ATRANSACTION` row and
/// its `ACHANGE` rows inside its own write transaction, so history and data commit or roll
/// back together.
extension SQLiteStore {
    /// One object's change, as it is about to be recorded.
    struct HistoryChangeRecord {
        let type: NSPersistentHistoryChangeType
        let objectID: NSManagedObjectID
        /// An update's changed property names.
        var properties: Set<String>? = nil
        /// A delete's preserved values, encoded.
        var tombstone: [UInt8]? = nil
    }

    var tracksHistory: Bool { StoreOptions.flag(NSPersistentHistoryTrackingKey, in: options ?? [:]) }

    /// Creates the history tables when tracking is on: at a store's creation or at the first
    /// open with tracking of a store made without it.
    func prepareHistoryTables(_ connection: SQLiteConnection) throws {
        guard tracksHistory, !isReadOnly else { return }
        try connection.transaction {
            for statement in SQLiteHistorySchema.createStatements { try connection.execute(statement) }
        }
    }

    /// Records a save. Runs inside its write transaction before the rows are written, as a
    /// delete's tombstone is read from the row it removes.
    func recordHistory(of changes: StoreChanges, _ connection: SQLiteConnection) throws {
        guard tracksHistory else { return }
        let records = changes.inserted.map { HistoryChangeRecord(type: .insert, objectID: $0.objectID) }
            + changes.updated.map { HistoryChangeRecord(type: .update, objectID: $0.row.objectID, properties: changes.updatedProperties[$0.row.objectID]) }
            + (try deletionRecords(changes.deleted.map(\.objectID)))
        try recordHistory(records, origin: changes.origin, connection)
    }

    /// The delete records of `ids`, with the tombstones of entities that preserve values; to be
    /// read before the rows go.
    func deletionRecords(_ ids: [NSManagedObjectID]) throws -> [HistoryChangeRecord] {
        guard tracksHistory else { return [] }
        let preserving = ids.filter { id in id.entity.attributesByName.values.contains { $0.preservesValueInHistoryOnDeletion } }
        let rows = preserving.isEmpty ? [:] : try rows(for: preserving)
        return try ids.map { id in
            var record = HistoryChangeRecord(type: .delete, objectID: id)
            if let row = rows[id] {
                var values: [String: Any] = [:]
                for attribute in id.entity.attributesByName.values where attribute.preservesValueInHistoryOnDeletion {
                    values[attribute.name] = row.values[attribute.name]
                }
                record.tombstone = try HistoryTombstone.encode(values)
            }
            return record
        }
    }

    /// Writes one transaction and its changes; nothing when there are no changes.
    func recordHistory(_ records: [HistoryChangeRecord], origin: TransactionOrigin?, _ connection: SQLiteConnection) throws {
        guard tracksHistory, !records.isEmpty else { return }
        let strings = try [origin?.author, Self.bundleID, origin?.contextName, Self.processID].map { try internedString($0, connection) }
        try connection.run("INSERT INTO ATRANSACTION (Z_ENT, Z_OPT, ZAUTHOR, ZBUNDLEID, ZCONTEXTNAME, ZPROCESSID, ZTIMESTAMP) VALUES (?, 1, ?, ?, ?, ?, ?)",
                           [.integer(SQLiteHistorySchema.transactionEntity)] + strings + [.real(Date().timeIntervalSinceReferenceDate)])
        guard case .integer(let transaction)? = try connection.scalar("SELECT last_insert_rowid()") else { return }
        for record in records {
            try connection.run("""
                INSERT INTO ACHANGE (Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS, ZTOMBSTONE0) \
                VALUES (?, 1, ?, ?, ?, ?, ?, ?)
                """, [
                    .integer(SQLiteHistorySchema.changeEntity), .integer(Int64(record.type.rawValue)),
                    .integer(Int64(record.objectID.entity.entityNumber)), .integer(record.objectID.primaryKey ?? 0), .integer(transaction),
                    record.properties.map { .text($0.sorted().joined(separator: ",")) } ?? .null,
                    record.tombstone.map { .blob($0) } ?? .null,
                ])
        }
    }

    /// The key of `string` in `ATRANSACTIONSTRING`, adding it the first time; NULL for nil.
    private func internedString(_ string: String?, _ connection: SQLiteConnection) throws -> SQLValue {
        guard let string else { return .null }
        try connection.run("INSERT OR IGNORE INTO ATRANSACTIONSTRING (Z_ENT, Z_OPT, ZNAME) VALUES (?, 1, ?)",
                           [.integer(SQLiteHistorySchema.stringEntity), .text(string)])
        return try connection.scalar("SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?", [.text(string)]) ?? .null
    }

    /// Command-line programs on Linux have no bundle identifier; the process name stands in.
    static let bundleID = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    static let processID = String(ProcessInfo.processInfo.processIdentifier)
}
