/// Reading and deleting persistent history, for `NSPersistentHistoryChangeRequest` and the
/// coordinator's current token.
extension SQLiteStore: HistoryTracking {
    func lastTransactionNumber() throws -> Int64 {
        try read(singleStatement: true) { connection in
            // AUTOINCREMENT's counter, not MAX(Z_PK): it survives the deletion of every transaction.
            guard case .integer(let number)? = try connection.scalar("SELECT seq FROM sqlite_sequence WHERE name = 'ATRANSACTION'") else { return 0 }
            return number
        }
    }

    func transactions(after boundary: HistoryBoundary) throws -> [NSPersistentHistoryTransaction] {
        let condition = SQLiteHistorySchema.condition(boundary, deleting: false, dialect: dialect)
        let reader = HistoryReader(store: self)
        return try read { connection in
            if case .transactionNumber(let seen) = boundary { try refuseExpired(after: seen, connection) }
            try connection.query(SQLiteHistorySchema.transactionsQuery(where: condition.sql), condition.bindings, row: reader.addTransaction)
            try connection.query(SQLiteHistorySchema.changesQuery(where: condition.sql), condition.bindings, row: reader.addChange)
            return reader.transactions
        }
    }

    /// Throws `NSPersistentHistoryTokenExpiredError` when transactions after `seen` have been
    /// deleted, as Apple's store does: a reader that merged up to `seen` would otherwise miss them
    /// without knowing. Transaction numbers never repeat (AUTOINCREMENT) and deletion removes
    /// the oldest first, so a gap between `seen` and the oldest kept one means deleted history.
    private func refuseExpired(after seen: Int64, _ connection: SQLiteConnection) throws {
        guard case .integer(let last)? = try connection.scalar("SELECT seq FROM sqlite_sequence WHERE name = 'ATRANSACTION'"),
              seen < last else { return }
        let oldestKept: Int64
        if case .integer(let oldest)? = try connection.scalar("SELECT MIN(Z_PK) FROM ATRANSACTION") { oldestKept = oldest } else { oldestKept = last + 1 }
        guard oldestKept > seen + 1 else { return }
        throw HistoryReader(store: self).expired(after: seen, oldestKept: oldestKept)
    }

    func deleteTransactions(before boundary: HistoryBoundary) throws -> Int {
        let condition = SQLiteHistorySchema.condition(boundary, deleting: true, dialect: dialect)
        return try writeTransaction { connection in
            let selected = "SELECT t.Z_PK FROM ATRANSACTION t WHERE \(condition.sql)"
            _ = try connection.run("DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN (\(selected))", condition.bindings)
            return try connection.run("DELETE FROM ATRANSACTION WHERE Z_PK IN (\(selected))", condition.bindings)
        }
    }
}
