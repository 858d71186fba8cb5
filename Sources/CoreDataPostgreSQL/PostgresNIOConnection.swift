import Dispatch
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// One postgres-nio connection behind the store's synchronous interface. Values travel as the
/// store's `SQLValue`s: bound with their PostgreSQL types (int8, float8, text, bytea; NULL
/// untyped, so the server infers it) and read back from the binary result format.
final class PostgresNIOConnection: PostgreSQLConnection, @unchecked Sendable {
    private let connection: PostgresConnection
    /// The semaphore of the statement waiting for its answer, if any: signalled when the
    /// connection closes, so that a wait ends when the server goes away without answering.
    private let waiting = NIOLockedValueBox<DispatchSemaphore?>(nil)

    init(_ connection: PostgresConnection) {
        self.connection = connection
        // One callback for the connection's lifetime, rather than one per statement, which
        // would pile up on a pooled connection for as long as it lives.
        connection.closeFuture.whenComplete { [waiting] _ in
            waiting.withLockedValue { semaphore in _ = semaphore?.signal() }
        }
    }

    var isOpen: Bool { !connection.isClosed }

    func close() {
        try? connection.close().wait()
    }

    func execute(_ sql: String, _ bindings: [SQLValue]) throws -> PostgreSQLResult {
        var binds = PostgresBindings(capacity: bindings.count)
        for value in bindings {
            switch value {
            case .null: binds.appendNull()
            case .integer(let number): binds.append(number)
            case .real(let number): binds.append(number)
            case .text(let text): binds.append(text)
            case .blob(let bytes): binds.append(ByteBuffer(bytes: bytes))
            }
        }
        // Each row is decoded on the event loop as it arrives, while later ones are still on the
        // wire, and its buffers are let go at once, rather than all rows collected first and
        // decoded after the last one.
        let rows = NIOLockedValueBox<[[SQLValue]]>([])
        do {
            let query = PostgresQuery(unsafeSQL: sql, binds: binds)
            let metadata = try answer(to: connection.query(query, logger: PostgresNIOConnector.logger) { row in
                let values = try row.map(Self.value(of:))
                rows.withLockedValue { $0.append(values) }
            })
            return PostgreSQLResult(rows: rows.withLockedValue { $0 }, affectedRows: metadata.rows ?? 0)
        } catch {
            throw Self.failure(error)
        }
    }

    /// Waits for the server's answer on this thread (never an event loop's), woken by the answer
    /// or by the connection closing: postgres-nio can leave a query sent as the server ends the
    /// session unanswered for ever (seen when the server restarts under eight writers).
    private func answer<Answer: Sendable>(to query: EventLoopFuture<Answer>) throws -> Answer {
        let settled = DispatchSemaphore(value: 0)
        let answer = NIOLockedValueBox<Result<Answer, any Error>?>(nil)
        waiting.withLockedValue { $0 = settled }
        defer { waiting.withLockedValue { $0 = nil } }
        query.whenComplete { result in
            answer.withLockedValue { $0 = result }
            settled.signal()
        }
        // A close before `waiting` was set signalled no one; seen here instead.
        if !connection.isClosed || answer.withLockedValue({ $0 != nil }) { settled.wait() }
        guard let result = answer.withLockedValue({ $0 }) else {
            throw PostgreSQLFailure.connectionLost("the connection closed before the server answered")
        }
        return try result.get()
    }

    /// A result column as the value the store expects for its declared type.
    private static func value(of cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int8, .int4, .int2: return .integer(try cell.decode(Int64.self))
        case .float8, .float4: return .real(try cell.decode(Double.self))
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .bytea: return .blob(Array(buffer: try cell.decode(ByteBuffer.self)))
        case .numeric:
            // SUM and AVG of integers: whole numbers stay integers, as SQLite returns them.
            // (Decoded through Decimal: the binary format is not text.)
            let text = "\(try cell.decode(Decimal.self))"
            if let whole = Int64(text) { return .integer(whole) }
            return .real(Double(text) ?? 0)
        default: return .text(try cell.decode(String.self))
        }
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
