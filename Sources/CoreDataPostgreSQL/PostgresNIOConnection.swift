import Foundation
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// One postgres-nio connection behind the store's synchronous interface. Values are bound with
/// their PostgreSQL types (int8, float8, text, bytea; NULL untyped, so the server infers it);
/// rows come back in the binary format and are streamed to the waiting thread
/// (`PostgresNIORowStream`), which reads their cells in place (`PostgresNIORow`).
final class PostgresNIOConnection: PostgreSQLConnection, @unchecked Sendable {
    private let connection: PostgresConnection
    /// The rows of the statement being waited for, if any: ended when the connection closes,
    /// so that a wait ends when the server goes away without answering.
    private let current = NIOLockedValueBox<PostgresNIORowStream?>(nil)

    init(_ connection: PostgresConnection) {
        self.connection = connection
        // One callback for the connection's lifetime, rather than one per statement, which
        // would pile up on a pooled connection for as long as it lives.
        connection.closeFuture.whenComplete { [current] _ in
            current.withLockedValue { $0?.finish(.connectionClosed) }
        }
    }

    var isOpen: Bool { !connection.isClosed }

    func close() {
        try? connection.close().wait()
    }

    /// Waits for the server's answer on this thread (never an event loop's), visiting rows as
    /// they arrive; woken by each row, by the answer, or by the connection closing: postgres-nio
    /// can leave a query sent as the server ends the session unanswered for ever (seen when the
    /// server restarts under eight writers). An error `row` throws comes out unchanged; the
    /// driver's own map through `failure(_:)`.
    func execute(_ sql: String, _ bindings: [SQLValue], row: (any SQLRow) throws -> Void) throws -> Int {
        let rows = PostgresNIORowStream()
        current.withLockedValue { $0 = rows }
        defer { current.withLockedValue { $0 = nil } }
        let query = PostgresQuery(unsafeSQL: sql, binds: Self.binds(bindings))
        connection.query(query, logger: PostgresNIOConnector.logger) { try rows.receive($0) }
            .whenComplete { rows.finish(.answered($0)) }
        // A close before `current` was set ended no statement; seen here instead.
        if connection.isClosed { rows.finish(.connectionClosed) }
        switch try rows.read({ try row(PostgresNIORow($0)) }) {
        case .answered(.success(let metadata)): return metadata.rows ?? 0
        case .answered(.failure(let error)): throw Self.failure(error)
        case .connectionClosed: throw PostgreSQLFailure.connectionLost("the connection closed before the server answered")
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
    /// a connection that is gone.
    static func failure(_ error: any Error) -> PostgreSQLFailure {
        if let error = error as? PSQLError {
            if let state = error.serverInfo?[.sqlState] {
                // 57P01: the server is shutting down and ends this session.
                if state.hasPrefix("57P") || state.hasPrefix("08") { return .connectionLost(error.serverInfo?[.message] ?? state) }
                return .refused(state: state, message: error.serverInfo?[.message] ?? String(reflecting: error))
            }
            return .connectionLost(String(describing: error.code))
        }
        return .connectionLost(String(describing: error))
    }
}
