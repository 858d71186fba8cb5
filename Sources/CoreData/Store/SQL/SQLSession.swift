/// A connection a table store runs statements on: SQLite's, or a borrowed PostgreSQL one.
protocol SQLSession {
    associatedtype Row: SQLRow
    /// The words the database speaks; what is written once for both (a migration, the model
    /// cache) asks it for the few statements that differ.
    var dialect: SQLDialect { get }
    func query(_ sql: String, _ bindings: [SQLValue], row: (Row) throws -> Void) throws
    /// Runs a statement whose rows and count of changed rows nobody reads: a save's writes, a
    /// migration's statements. PostgreSQL runs one with bound values on a prepared statement,
    /// which cannot answer that count (`PostgreSQLSession.write`).
    func write(_ sql: String, _ bindings: [SQLValue]) throws
    /// Runs a statement and returns the number of rows it inserted, updated or deleted; only
    /// for a caller that reads it (a batch request's result).
    func run(_ sql: String, _ bindings: [SQLValue]) throws -> Int
    /// The first column of the first row, or nil.
    func scalar(_ sql: String, _ bindings: [SQLValue]) throws -> SQLValue?
}

/// What a read does with each row of a fetch, whichever session's row type it arrives in: a
/// generic method, which a closure cannot be, so decoding stays specialised for each session.
protocol SQLRowVisitor {
    mutating func visit(_ row: some SQLRow) throws
}

extension SQLSession {
    /// Hands `visitor` the rows of `sql`, a statement of `plan`, as they arrive; when the plan
    /// orders and pages in Swift, they are collected, ordered and paged first.
    func forEachRow(of plan: SQLFetchPlan, sql: String, into visitor: inout some SQLRowVisitor) throws {
        guard let order = plan.swiftOrder else {
            try query(sql, plan.bindings) { row in try visitor.visit(row) }
            return
        }
        var collected: [SQLValueRow] = []
        try query(sql, plan.bindings) { row in collected.append(SQLValueRow(copying: row)) }
        for row in order.apply(to: collected) { try visitor.visit(row) }
    }
}

extension SQLiteConnection: SQLSession {
    var dialect: SQLDialect { .sqlite }

    /// Every SQLite statement is cached and answers its count; nothing to choose.
    func write(_ sql: String, _ bindings: [SQLValue]) throws {
        try run(sql, bindings)
    }
}

extension PostgreSQLSession: SQLSession {
    var dialect: SQLDialect { .postgreSQL }
}

/// A store that keeps Apple's table layout in a SQL database: the SQLite and PostgreSQL
/// stores. They differ only in their session (how a reader or the writer is reached) and their
/// dialect; the read path (`SQLTableStore+Reading`), the save (`+Writing`), batch requests and
/// dictionary fetches are written once against this.
protocol SQLTableStore: BuiltInStore, HistoryTracking, SQLDatabaseWriter {
    var dialect: SQLDialect { get }
    /// The model's tables and row decoders, built once by `load(model:)`.
    var catalog: SQLTableCatalog { get }
    /// Words naming the store in error messages ("the store at /path", "schema app").
    var storeName: String { get }
    /// Records a save's history inside its write (and, on PostgreSQL, announces the commit).
    func recordHistory(of changes: StoreChanges, _ session: Session) throws
    /// Records one history transaction of `records`, inside the current write.
    func recordHistory(_ records: [HistoryRecord], origin: TransactionOrigin?, _ session: Session) throws
    /// Metadata `setMetadata(_:for:)` gave, written with the next save (under the store's lock).
    var pendingMetadata: [String: Any]? { get set }
}

extension SQLTableStore {
    /// A save's history records; read before its rows are written, as a delete's tombstone is
    /// read from the row it removes.
    func historyRecords(of changes: StoreChanges) throws -> [HistoryRecord] {
        changes.inserted.map { HistoryRecord(type: .insert, objectID: $0.objectID) }
            + changes.updated.map { HistoryRecord(type: .update, objectID: $0.row.objectID, properties: changes.updatedProperties[$0.row.objectID]) }
            + (try deletionRecords(changes.deleted.map(\.objectID)))
    }

    /// The delete records of `ids`, with the tombstones of entities that preserve values.
    func deletionRecords(_ ids: [NSManagedObjectID]) throws -> [HistoryRecord] {
        guard tracksHistory else { return [] }
        let preserving = ids.filter { id in id.entity.attributesByName.values.contains { $0.preservesValueInHistoryOnDeletion } }
        let rows = preserving.isEmpty ? [:] : try rows(for: preserving)
        return try ids.map { HistoryRecord(type: .delete, objectID: $0, tombstone: try HistoryTombstone.preserved(in: rows[$0])) }
    }
}
