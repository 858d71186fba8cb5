/// One borrowed connection with the calls a store makes on it, in the shapes the SQLite
/// connection has (`query` with a row callback, `write`, `run`, `scalar`, `transaction`).
struct PostgreSQLSession {
    let connection: any PostgreSQLConnection

    /// Hands `row` each row of `sql`'s result as it arrives from the server.
    func query(_ sql: String, _ bindings: [SQLValue] = [], row: (PostgreSQLRow) throws -> Void) throws {
        try connection.query(sql, bindings) { try row(PostgreSQLRow(received: $0)) }
    }

    /// Runs a statement whose rows and count of changed rows nobody reads. One with bound
    /// values runs on the statement its connection prepared for its shape, as a read does: the
    /// writes of saves repeat a few shapes per table. One without (`BEGIN`, `COMMIT`, DDL,
    /// `SET`, a statement run once) is sent unnamed: preparing it would cost a round trip and
    /// keep a statement on the server for nothing.
    func write(_ sql: String, _ bindings: [SQLValue] = []) throws {
        if bindings.isEmpty {
            try connection.execute(sql, bindings)
        } else {
            try connection.query(sql, bindings) { _ in }
        }
    }

    /// Runs a statement and returns the number of rows it inserted, updated or deleted. It is
    /// sent unnamed, parsed on every call: postgres-nio (1.33) drops the command tag, which
    /// carries the count, of a prepared statement's execution (vapor/postgres-nio#304), and
    /// counting in SQL instead (`WITH changed AS (… RETURNING 1) SELECT count(*)`) would add
    /// work per row to the only callers, batch requests and history purges, each one statement
    /// that changes many rows.
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
        try write("BEGIN")
        do {
            let result = try body()
            try write("COMMIT")
            return result
        } catch {
            if connection.isOpen { try? write("ROLLBACK") }
            throw error
        }
    }
}
