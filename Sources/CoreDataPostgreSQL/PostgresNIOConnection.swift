import Foundation
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// One postgres-nio connection behind the store's synchronous interface. Values are bound with
/// their PostgreSQL types (int8, float8, text, bytea; NULL untyped, so the server infers it);
/// rows come back in the binary format and are streamed to the waiting thread
/// (`PostgresNIORowStream`), which reads their cells in place (`PostgresNIORow`). Statements
/// whose count is not read (`query`: reads, and the writes of saves) run on statements prepared
/// once per connection and shape (`PostgresNIOStatementCache`); the others are sent unnamed,
/// parsed on every call, since only those answer the count of rows they wrote.
final class PostgresNIOConnection: PostgreSQLConnection, @unchecked Sendable {
    private let connection: PostgresConnection
    /// Ends the wait for the request being waited for, if any: called when the connection
    /// closes, so that a wait ends when the server goes away without answering.
    private let current = NIOLockedValueBox<(@Sendable () -> Void)?>(nil)
    /// Used only by the thread the connection is lent to; locked for the compiler's sake.
    private let statements = NIOLockedValueBox(PostgresNIOStatementCache(capacity: PostgresNIOConnector.preparedStatementsPerConnection))

    init(_ connection: PostgresConnection) {
        self.connection = connection
        // One callback for the connection's lifetime, rather than one per statement, which
        // would pile up on a pooled connection for as long as it lives.
        connection.closeFuture.whenComplete { [current] _ in
            current.withLockedValue { $0?() }
        }
    }

    var isOpen: Bool { !connection.isClosed }

    func close() {
        try? connection.close().wait()
    }

    func execute(_ sql: String, _ bindings: [SQLValue], row: (any SQLRow) throws -> Void) throws -> Int {
        let query = PostgresQuery(unsafeSQL: sql, binds: Self.binds(bindings))
        let metadata = try wait(row: row) { [connection] rows in
            connection.query(query, logger: PostgresNIOConnector.logger) { try rows.receive($0) }
        }
        return metadata.rows ?? 0
    }

    /// Runs the statement prepared for `sql` and the types of `bindings`, preparing it first
    /// if this connection has not. A statement whose rows changed type under it (a migration
    /// altered a column: PostgreSQL refuses it with 0A000, "cached plan must not change result
    /// type") is prepared again, once; inside a transaction that retry fails as the transaction
    /// has, and the next call prepares it afresh.
    func query(_ sql: String, _ bindings: [SQLValue], row: (any SQLRow) throws -> Void) throws {
        let shape = PostgresNIOStatementShape(sql: sql, bindings: bindings)
        do {
            try run(try prepared(shape), bindings, row: row)
        } catch PostgreSQLFailure.refused(state: "0A000", _) {
            if let stale = statements.withLockedValue({ $0.remove(shape) }) { _ = stale.deallocate() }
            try run(try prepared(shape), bindings, row: row)
        }
    }

    private func prepared(_ shape: PostgresNIOStatementShape) throws -> PostgresNIOStatementCache.Prepared {
        if let prepared = statements.withLockedValue({ $0.statement(for: shape) }) { return prepared }
        let (sql, parameters) = shape.prepared
        let statement = try wait(row: { _ in }) { [connection] _ in connection.prepare(query: sql) }
        let prepared = PostgresNIOStatementCache.Prepared(statement: statement, parameters: parameters)
        for evicted in statements.withLockedValue({ $0.insert(prepared, for: shape) }) { _ = evicted.deallocate() }
        return prepared
    }

    private func run(_ prepared: PostgresNIOStatementCache.Prepared, _ bindings: [SQLValue], row: (any SQLRow) throws -> Void) throws {
        let values = prepared.parameters.map { Self.data(bindings[$0]) }
        try wait(row: row) { rows in prepared.statement.execute(values) { try rows.receive($0) } }
    }

    /// Sends a request with `send` and waits for its answer on this thread (never an event
    /// loop's), visiting rows as they arrive; woken by each row, by the answer, or by the
    /// connection closing: postgres-nio can leave a query sent as the server ends the session
    /// unanswered for ever (seen when the server restarts under eight writers). An error `row`
    /// throws comes out unchanged; the driver's own map through `failure(_:)`.
    private func wait<Answer>(row: (any SQLRow) throws -> Void,
                              _ send: (PostgresNIORowStream<Answer>) -> EventLoopFuture<Answer>) throws -> Answer {
        let rows = PostgresNIORowStream<Answer>()
        current.withLockedValue { $0 = { rows.finish(.connectionClosed) } }
        defer { current.withLockedValue { $0 = nil } }
        send(rows).whenComplete { rows.finish(.answered($0)) }
        // A close before `current` was set ended no request; seen here instead.
        if connection.isClosed { rows.finish(.connectionClosed) }
        switch try rows.read({ try row(PostgresNIORow($0)) }) {
        case .answered(.success(let answer)): return answer
        case .answered(.failure(let error)): throw Self.failure(error)
        case .connectionClosed: throw PostgreSQLFailure.connectionLost("the connection closed before the server answered")
        }
    }

    /// A value for a prepared statement, of the type its placeholder states
    /// (`PostgresNIOStatementShape`).
    private static func data(_ value: SQLValue) -> PostgresData {
        switch value {
        case .null: .null
        case .integer(let number): PostgresData(int64: number)
        case .real(let number): PostgresData(double: number)
        case .text(let text): PostgresData(string: text)
        case .blob(let bytes): PostgresData(bytes: bytes)
        }
    }

    private static func binds(_ values: [SQLValue]) -> PostgresBindings {
        var binds = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .null: binds.appendNull()
            case .integer(let number): binds.append(number)
            case .real(let number): binds.append(number)
            case .text(let text): binds.append(text)
            case .blob(let bytes): binds.append(ByteBuffer(bytes: bytes))
            }
        }
        return binds
    }

    /// The store's view of a postgres-nio error: refused by the server (with its SQLSTATE), or
    /// a connection that is gone. Prepared statements fail with postgres-nio's older error type,
    /// which carries the same fields.
    static func failure(_ error: any Error) -> PostgreSQLFailure {
        if let error = error as? PSQLError {
            if let state = error.serverInfo?[.sqlState] {
                return refusal(state: state, message: error.serverInfo?[.message] ?? String(reflecting: error))
            }
            return .connectionLost(String(describing: error.code))
        }
        if case .server(let response)? = error as? PostgresError, let state = response.fields[.sqlState] {
            return refusal(state: state, message: response.fields[.message] ?? response.description)
        }
        return .connectionLost(String(describing: error))
    }

    private static func refusal(state: String, message: String) -> PostgreSQLFailure {
        // 57P01: the server is shutting down and ends this session.
        if state.hasPrefix("57P") || state.hasPrefix("08") { return .connectionLost(message) }
        return .refused(state: state, message: message)
    }
}
