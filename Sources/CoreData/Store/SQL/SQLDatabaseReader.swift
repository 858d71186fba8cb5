/// What may read a SQL store's tables: a session that sees one consistent snapshot (GRDB's
/// `DatabaseReader` is the model). The SQLite store hands out a pooled reader in WAL mode, the
/// PostgreSQL store a pooled connection; both hand out the writer's session to the thread inside
/// a write, which must see its own uncommitted rows, and a query generation's session to a
/// context pinned to it.
protocol SQLDatabaseReader {
    associatedtype Session: SQLSession
    /// Runs `body` on a session that reads one snapshot for its whole duration; a
    /// `singleStatement` body is a snapshot by itself and may skip the transaction around it.
    func read<T>(singleStatement: Bool, _ body: (Session) throws -> T) throws -> T
}

extension SQLDatabaseReader {
    func read<T>(_ body: (Session) throws -> T) throws -> T {
        try read(singleStatement: false, body)
    }
}
