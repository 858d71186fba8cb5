/// Recording persistent history: each save and batch request writes one `ATRANSACTION` row and
/// its `ACHANGE` rows inside its own write transaction, so history and data commit or roll
/// back together.
extension SQLiteStore {
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
        try recordHistory(try historyRecords(of: changes), origin: changes.origin, connection)
    }

    /// Writes one transaction and its changes; nothing when there are no changes.
    func recordHistory(_ records: [HistoryRecord], origin: TransactionOrigin?, _ connection: SQLiteConnection) throws {
        guard tracksHistory, !records.isEmpty else { return }
        let strings = try [origin?.author, HistoryRecord.bundleID, origin?.contextName, HistoryRecord.processID].map { try internedString($0, connection) }
        try connection.run("INSERT INTO ATRANSACTION (Z_ENT, Z_OPT, ZAUTHOR, ZBUNDLEID, ZCONTEXTNAME, ZPROCESSID, ZTIMESTAMP) VALUES (?, 1, ?, ?, ?, ?, ?)",
                           [.integer(SQLiteHistorySchema.transactionEntity)] + strings + [.real(Date().timeIntervalSinceReferenceDate)])
        guard case .integer(let transaction)? = try connection.scalar("SELECT last_insert_rowid()") else { return }
        // Several rows a statement: each INSERT into ACHANGE also reads and writes its
        // AUTOINCREMENT counter in sqlite_sequence, and a statement per change made recording
        // cost more than saving the row itself. Chunks are powers of two, so at most seven
        // statement shapes reach the statement cache.
        var start = records.startIndex
        while start < records.endIndex {
            let count = Self.changeInsertRows(for: records.endIndex - start)
            var values: [SQLValue] = []
            values.reserveCapacity(count * 7)
            for record in records[start..<(start + count)] {
                values.append(.integer(SQLiteHistorySchema.changeEntity))
                values += record.columns(transaction: transaction)
            }
            try connection.run(Self.changeInserts[count.trailingZeroBitCount], values)
            start += count
        }
    }

    /// The most rows one INSERT into ACHANGE takes.
    private static let changeInsertMaximum = 64

    /// How many of `remaining` changes the next INSERT takes: the largest power of two that
    /// fits, up to `changeInsertMaximum`.
    private static func changeInsertRows(for remaining: Int) -> Int {
        1 << (Int.bitWidth - 1 - min(remaining, changeInsertMaximum).leadingZeroBitCount)
    }

    /// The INSERT of 2^n ACHANGE rows at index n.
    private static let changeInserts: [String] = (0...changeInsertMaximum.trailingZeroBitCount).map { power in
        "INSERT INTO ACHANGE (Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS, ZTOMBSTONE0) VALUES "
            + repeatElement("(?, 1, ?, ?, ?, ?, ?, ?)", count: 1 << power).joined(separator: ", ")
    }

    /// The key of `string` in `ATRANSACTIONSTRING`, adding it the first time; NULL for nil.
    private func internedString(_ string: String?, _ connection: SQLiteConnection) throws -> SQLValue {
        guard let string else { return .null }
        try connection.run("INSERT OR IGNORE INTO ATRANSACTIONSTRING (Z_ENT, Z_OPT, ZNAME) VALUES (?, 1, ?)",
                           [.integer(SQLiteHistorySchema.stringEntity), .text(string)])
        return try connection.scalar("SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?", [.text(string)]) ?? .null
    }
}
