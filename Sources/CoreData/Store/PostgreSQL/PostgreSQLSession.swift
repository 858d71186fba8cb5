/// One borrowed connection with the calls a store makes on it, in the shapes the SQLite
/// connection has (`query` with a row callback, `run`, `scalar`, `transaction`).
struct PostgreSQLSession {
    let connection: any PostgreSQLConnection

    func query(_ sql: String, _ bindings: [SQLValue] = [], row: (SQLValueRow) throws -> Void) throws {
        for values in try connection.execute(sql, bindings).rows { try row(SQLValueRow(values: values)) }
    }

    @discardableResult
    func run(_ sql: String, _ bindings: [SQLValue] = []) throws -> Int {
        try connection.execute(sql, bindings).affectedRows
    }

    func scalar(_ sql: String, _ bindings: [SQLValue] = []) throws -> SQLValue? {
        try connection.execute(sql, bindings).rows.first?.first
    }

    /// Runs `body` in one transaction: committed if it returns, rolled back if it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try run("BEGIN")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            if connection.isOpen { _ = try? run("ROLLBACK") }
            throw error
        }
    }
}
