/// Persistent history on PostgreSQL: recorded inside each save's transaction, announced with
/// `NOTIFY` at commit, and read back for `NSPersistentHistoryChangeRequest`.
extension PostgreSQLStore {
    /// Records a save's changes (before its rows are written: a delete's tombstone is read
    /// from the row it removes) and announces the commit to every listening process.
    func recordHistory(of changes: StoreChanges, _ session: PostgreSQLSession) throws {
        if tracksHistory { try recordHistory(try historyRecords(of: changes), origin: changes.origin, session) }
        if tracksHistory || postsRemoteChanges {
            try session.write("SELECT pg_notify($1, $2)", [.text(endpoint.notificationChannel), .text(String(ProcessInfo.processInfo.processIdentifier))])
        }
    }

    func recordHistory(_ records: [HistoryRecord], origin: TransactionOrigin?, _ session: PostgreSQLSession) throws {
        guard tracksHistory, !records.isEmpty else { return }
        let lock = PostgreSQLHistorySchema.recordingLock(endpoint.schema)
        try session.write(lock.sql, lock.bindings)
        let strings = try [origin?.author, HistoryRecord.bundleID, origin?.contextName, HistoryRecord.processID].map { try internedString($0, session) }
        let inserted = try session.scalar("""
            INSERT INTO ATRANSACTION (Z_ENT, Z_OPT, ZAUTHOR, ZBUNDLEID, ZCONTEXTNAME, ZPROCESSID, ZTIMESTAMP) \
            VALUES ($1, 1, $2, $3, $4, $5, $6) RETURNING Z_PK
            """, [.integer(SQLiteHistorySchema.transactionEntity)] + strings + [.real(Date().timeIntervalSinceReferenceDate)])
        guard case .integer(let transaction)? = inserted else { return }
        for record in records {
            try session.write("""
                INSERT INTO ACHANGE (Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS, ZTOMBSTONE0) \
                VALUES ($1, 1, $2, $3, $4, $5, $6, $7)
                """, [.integer(SQLiteHistorySchema.changeEntity)] + record.columns(transaction: transaction))
        }
    }

    private func internedString(_ string: String?, _ session: PostgreSQLSession) throws -> SQLValue {
        guard let string else { return .null }
        try session.write("INSERT INTO ATRANSACTIONSTRING (Z_ENT, Z_OPT, ZNAME) VALUES ($1, 1, $2) ON CONFLICT (ZNAME) DO NOTHING",
                          [.integer(SQLiteHistorySchema.stringEntity), .text(string)])
        return try session.scalar("SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = $1", [.text(string)]) ?? .null
    }

    func lastTransactionNumber() throws -> Int64 {
        try read { session in
            guard case .integer(let number)? = try session.scalar(PostgreSQLHistorySchema.lastNumberQuery) else { return 0 }
            return number
        }
    }

    func transactions(after boundary: HistoryBoundary) throws -> [NSPersistentHistoryTransaction] {
        let condition = SQLiteHistorySchema.condition(boundary, deleting: false, dialect: dialect)
        let reader = HistoryReader(store: self)
        return try read { session in
            if case .transactionNumber(let seen) = boundary, case .integer(let purged)? = try session.scalar("SELECT MAX(Z_LAST) FROM Z_HISTORYPURGE"), seen < purged {
                throw reader.expired(after: seen, oldestKept: purged + 1)
            }
            try session.query(SQLiteHistorySchema.transactionsQuery(where: condition.sql), condition.bindings, row: reader.addTransaction)
            try session.query(SQLiteHistorySchema.changesQuery(where: condition.sql), condition.bindings, row: reader.addChange)
            return reader.transactions
        }
    }

    func deleteTransactions(before boundary: HistoryBoundary) throws -> Int {
        let condition = SQLiteHistorySchema.condition(boundary, deleting: true, dialect: dialect)
        return try writeTransaction { session in
            let selected = "SELECT t.Z_PK FROM ATRANSACTION t WHERE \(condition.sql)"
            try session.write("INSERT INTO Z_HISTORYPURGE (Z_LAST) SELECT MAX(t.Z_PK) FROM ATRANSACTION t WHERE \(condition.sql) HAVING MAX(t.Z_PK) IS NOT NULL",
                              condition.bindings)
            try session.write("DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN (\(selected))", condition.bindings)
            return try session.run("DELETE FROM ATRANSACTION WHERE Z_PK IN (\(selected))", condition.bindings)
        }
    }

    /// Listens for commits to the schema and posts `.NSPersistentStoreRemoteChange` for each.
    func startListening(_ connector: any PostgreSQLConnector) throws -> any PostgreSQLListener {
        try connector.listen(to: endpoint, channel: endpoint.notificationChannel) { [weak self] _ in self?.postRemoteChange() }
    }
}
