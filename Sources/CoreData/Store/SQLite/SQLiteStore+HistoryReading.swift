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
        let condition = SQLiteHistorySchema.condition(boundary, deleting: false)
        let entities = Dictionary((persistentStoreCoordinator?.managedObjectModel.entities ?? []).map { (Int64($0.entityNumber), $0) },
                                  uniquingKeysWith: { first, _ in first })
        return try read { connection in
            if case .transactionNumber(let seen) = boundary { try refuseExpired(after: seen, connection) }
            var transactions: [Int64: NSPersistentHistoryTransaction] = [:]
            var ordered: [NSPersistentHistoryTransaction] = []
            try connection.query("""
                SELECT t.Z_PK, t.ZTIMESTAMP, a.ZNAME, b.ZNAME, c.ZNAME, p.ZNAME FROM ATRANSACTION t \
                LEFT JOIN ATRANSACTIONSTRING a ON a.Z_PK = t.ZAUTHOR LEFT JOIN ATRANSACTIONSTRING b ON b.Z_PK = t.ZBUNDLEID \
                LEFT JOIN ATRANSACTIONSTRING c ON c.Z_PK = t.ZCONTEXTNAME LEFT JOIN ATRANSACTIONSTRING p ON p.Z_PK = t.ZPROCESSID \
                WHERE \(condition.sql) ORDER BY t.Z_PK
                """, condition.bindings) { row in
                let transaction = NSPersistentHistoryTransaction(
                    transactionNumber: row.int64(at: 0), storeID: identifier,
                    timestamp: Date(timeIntervalSinceReferenceDate: row.double(at: 1)),
                    bundleID: row.isNull(at: 3) ? "" : row.text(at: 3), processID: row.isNull(at: 5) ? "" : row.text(at: 5),
                    contextName: row.isNull(at: 4) ? nil : row.text(at: 4), author: row.isNull(at: 2) ? nil : row.text(at: 2))
                transaction.changes = []
                transactions[transaction.transactionNumber] = transaction
                ordered.append(transaction)
            }
            try connection.query("""
                SELECT Z_PK, ZTRANSACTIONID, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS, ZTOMBSTONE0 FROM ACHANGE \
                WHERE ZTRANSACTIONID IN (SELECT t.Z_PK FROM ATRANSACTION t WHERE \(condition.sql)) ORDER BY Z_PK
                """, condition.bindings) { row in
                // A change of an entity the model no longer has cannot name its object.
                guard let transaction = transactions[row.int64(at: 1)], let entity = entities[row.int64(at: 3)],
                      let type = NSPersistentHistoryChangeType(rawValue: Int(row.int64(at: 2))) else { return }
                let properties = row.isNull(at: 5) ? nil : Set(row.text(at: 5).split(separator: ",").compactMap { entity.propertiesByName[String($0)] })
                var tombstone: [AnyHashable: Any]?
                if case .blob(let bytes) = row.value(at: 6) { tombstone = HistoryTombstone.decode(bytes, entity: entity) }
                let change = NSPersistentHistoryChange(
                    changeID: row.int64(at: 0), changedObjectID: objectID(for: entity, primaryKey: row.int64(at: 4)), changeType: type,
                    tombstone: tombstone ?? (type == .delete ? [:] : nil), updatedProperties: type == .update ? properties ?? [] : nil)
                change.transaction = transaction
                transaction.changes!.append(change)
            }
            return ordered
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
        throw CoreDataError.make(NSPersistentHistoryTokenExpiredError,
            "The history after transaction \(seen) of store \(identifier ?? "") has been deleted (the oldest kept is \(oldestKept)); fetch from a newer token or reload everything",
            [NSAffectedStoresErrorKey: [self]])
    }

    func deleteTransactions(before boundary: HistoryBoundary) throws -> Int {
        let condition = SQLiteHistorySchema.condition(boundary, deleting: true)
        return try writeTransaction { connection in
            let selected = "SELECT t.Z_PK FROM ATRANSACTION t WHERE \(condition.sql)"
            _ = try connection.run("DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN (\(selected))", condition.bindings)
            return try connection.run("DELETE FROM ATRANSACTION WHERE Z_PK IN (\(selected))", condition.bindings)
        }
    }
}
