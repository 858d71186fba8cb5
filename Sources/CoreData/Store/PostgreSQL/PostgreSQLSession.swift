/// One borrowed connection with the calls a store makes on it, in the shapes the SQLite
/// connection has (`query` with a row callback, `run`, `scalar`, `transaction`).
struct PostgreSQLSession {
    let connection: any PostgreSQLConnection

    /// Hands `row` each row of `sql`'s result as it arrives from the server.
    func query(_ sql: String, _ bindings: [SQLValue] = [], row: (PostgreSQLRow) throws -> Void) throws {
        try connection.query(sql, bindings) { try row(PostgreSQLRow(received: $0)) }
    }

    @discardableResult
    func run(_ sql: String, _ bindings: [SQLValue] = []) throws -> Int {
        try connection.execute(sql, bindings)
    }

    func scalar(_ sql: String, _ bindings: [SQLValue] = []) throws -> SQLValue? {
        var first: SQLValue?
        try connection.query(sql, bindings) { row in
            if first == nil, row.columnCount > 0 { first = row.value(at: 0) }
        }
        return first
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
