import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// Connections to PostgreSQL on postgres-nio's event loops. Every call blocks its caller (a
/// context's queue) on a future; none runs on an event loop, where waiting would deadlock.
package struct PostgresNIOConnector: PostgreSQLConnector {
    static let logger = Logger(label: "CoreDataPostgreSQL")
    /// How many shapes of statement a connection keeps prepared (`PostgresNIOStatementCache`).
    package static let preparedStatementsPerConnection = 100

    package func connect(to endpoint: PostgreSQLEndpoint) throws -> any PostgreSQLConnection {
        let connection = PostgresNIOConnection(try Self.open(endpoint))
        _ = try connection.execute("SET search_path TO \(endpoint.schema)", [])
        return connection
    }

    package func listen(to endpoint: PostgreSQLEndpoint, channel: String,
                received: @escaping @Sendable (String) -> Void) throws -> any PostgreSQLListener {
        try PostgresNIOListener(endpoint: endpoint, channel: channel, received: received)
    }

    static func open(_ endpoint: PostgreSQLEndpoint) throws -> PostgresConnection {
        do {
            let configuration = PostgresConnection.Configuration(
                host: endpoint.host, port: endpoint.port, username: endpoint.user, password: endpoint.password,
                database: endpoint.database, tls: try tls(endpoint.tls))
            return try PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration,
                                                  id: nextID.add(1), logger: logger).wait()
        } catch {
            throw PostgresNIOConnection.failure(error)
        }
    }

    private static func tls(_ mode: PostgreSQLEndpoint.TLS) throws -> PostgresConnection.Configuration.TLS {
        switch mode {
        case .off: return .disable
        case .prefer: return .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: return .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
    }

    private static let nextID = ConnectionCounter()
}

/// Numbers connections for postgres-nio's logs.
private final class ConnectionCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func add(_ amount: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += amount
        return value
    }
}
