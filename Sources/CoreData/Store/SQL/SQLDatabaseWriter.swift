/// What may also write a SQL store's tables: one write transaction at a time per store (GRDB's
/// `DatabaseWriter` is the model). Only the store's writer sees a `writeTransaction` session, so
/// code handed a reader cannot write by mistake.
protocol SQLDatabaseWriter: SQLDatabaseReader {
    /// Runs `body` in one write transaction: committed if it returns, rolled back if it throws.
    /// A nested call from inside `body` joins the outer transaction.
    func writeTransaction<T>(_ body: (Session) throws -> T) throws -> T
}
