/// A connection a table store runs statements on: SQLite's, or a borrowed PostgreSQL one.
protocol SQLSession {
    associatedtype Row: SQLRow
    /// The words the database speaks; what is written once for both (a migration, the model
    /// cache) asks it for the few statements that differ.
    var dialect: SQLDialect { get }
    func query(_ sql: String, _ bindings: [SQLValue], row: (Row) throws -> Void) throws
    @discardableResult
    func run(_ sql: String, _ bindings: [SQLValue]) throws -> Int
    /// The first column of the first row, or nil.
    func scalar(_ sql: String, _ bindings: [SQLValue]) throws -> SQLValue?
}

extension SQLiteConnection: SQLSession {
    var dialect: SQLDialect { .sqlite }
}

extension PostgreSQLSession: SQLSession {
    var dialect: SQLDialect { .postgreSQL }
}

/// A store that keeps Apple's table layout in a SQL database: the SQLite and PostgreSQL
/// stores. What is written once for both (batch requests) is written against this.
protocol SQLTableStore: BuiltInStore, HistoryTracking {
    associatedtype Session: SQLSession
    var dialect: SQLDialect { get }
    func layout(for entity: NSEntityDescription) -> SQLTableLayout
    func entity(number: Int64, fallback: NSEntityDescription) -> NSEntityDescription
    /// Runs `body` in one write transaction.
    func writeTransaction<T>(_ body: (Session) throws -> T) throws -> T
    /// Refuses (`StoreVersionConflict`) a save whose updated or deleted rows another save
    /// changed since they were read; PostgreSQL also locks those rows until the commit.
    func checkVersions(_ changes: StoreChanges, _ session: Session) throws
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
