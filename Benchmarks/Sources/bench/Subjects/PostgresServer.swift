#if POSTGRESQL_CASES
import CoreDataPostgreSQL
import Foundation
import Logging
import PostgresNIO

/// The PostgreSQL server of the pg-* cases (`--postgres URL`), and the schemas they make on it.
///
/// Every store, ours or postgres-nio's, lives in a schema of its own named after this process,
/// made for one case and dropped after it, so runs never see each other's rows and a server
/// can be shared. Setting up and tearing down go through one connection of its own, untimed.
final class PostgresServer {
    static let logger = Logger(label: "bench.postgres")

    let configuration: PostgresConnection.Configuration
    /// `server_version`, for the report's header.
    private(set) var version = ""
    private let url: URLComponents
    private let admin: PostgresConnection
    private let prefix = "pcd_bench_\(ProcessInfo.processInfo.processIdentifier)_"
    private var made = 0
    private var schemas: [String] = []
    /// The direct variants' connections, closed before their schemas are dropped.
    private var connections: [PostgresConnection] = []

    init(url text: String) throws {
        guard let components = URLComponents(string: text), ["postgres", "postgresql"].contains(components.scheme ?? ""),
              let host = components.host, !host.isEmpty else {
            throw UsageError("--postgres needs a URL postgres://user@host:port/database, not '\(text)'")
        }
        let user = components.user ?? "postgres"
        let database = components.path.drop { $0 == "/" }
        // No TLS, as our store's URL without `tls=` has none: both sides pay the same per byte.
        let configuration = PostgresConnection.Configuration(
            host: host, port: components.port ?? 5432, username: user, password: components.password,
            database: database.isEmpty ? user : String(database), tls: .disable)
        self.configuration = configuration
        url = components
        do {
            admin = try blocking { try await PostgresConnection.connect(configuration: configuration, id: 0, logger: Self.logger) }
        } catch {
            throw BenchError("cannot connect to the PostgreSQL server at \(text): \(String(reflecting: error))")
        }
        version = try string("SHOW server_version")
    }

    /// A new, empty schema; `dropSchemas()` removes it.
    func makeSchema() throws -> String {
        made += 1
        let name = "\(prefix)\(made)"
        try execute("CREATE SCHEMA \(name)")
        schemas.append(name)
        return name
    }

    /// Our store's URL for a store in `schema`.
    func storeURL(_ schema: String) -> URL {
        var components = url
        components.queryItems = [URLQueryItem(name: "schema", value: schema)]
        return components.url!
    }

    /// A connection of postgres-nio's own whose unqualified table names resolve in `schema`, as
    /// our store's connections' do; closed by `dropSchemas()`.
    func connect(schema: String) throws -> PostgresConnection {
        let configuration = configuration
        let connection = try blocking {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Self.logger)
            try await connection.query(PostgresQuery(unsafeSQL: "SET search_path TO \(schema)"), logger: Self.logger)
            return connection
        }
        connections.append(connection)
        return connection
    }

    /// Runs `sql` on the set-up connection.
    func execute(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws {
        let admin = admin
        try blocking { _ = try await admin.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: Self.logger) }
    }

    /// The first column of the first row of `sql`, as an integer.
    func integer(_ sql: String) throws -> Int64 {
        let admin = admin
        return try blocking {
            for try await value in try await admin.query(PostgresQuery(unsafeSQL: sql), logger: Self.logger).decode(Int64.self) { return value }
            throw BenchError("\(sql): no row")
        }
    }

    private func string(_ sql: String) throws -> String {
        let admin = admin
        return try blocking {
            for try await value in try await admin.query(PostgresQuery(unsafeSQL: sql), logger: Self.logger).decode(String.self) { return value }
            throw BenchError("\(sql): no row")
        }
    }

    /// Our store in a new schema holding the first `rows` teams, written in one statement
    /// (`PostgresTeamSQL.insertArrays`) with `Z_PRIMARYKEY` kept in step, then vacuumed and
    /// analysed so that every variant reads settled pages with the planner's statistics.
    func populatedStore(data: TeamData, rows: Int) throws -> (container: NSPersistentContainer, schema: String) {
        let schema = try makeSchema()
        let container = try CoreDataStack.container(at: storeURL(schema), type: NSPostgreSQLStoreType)
        let entity = try integer("SELECT Z_ENT FROM \(schema).Z_PRIMARYKEY WHERE Z_NAME = 'Team'")
        try execute("SET search_path TO \(schema)")
        try execute(PostgresTeamSQL.insertArrays, PostgresTeamSQL.arrayBindings(data, range: 0..<rows, entity: entity))
        try execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(rows) WHERE Z_ENT = \(entity)")
        try execute("VACUUM ANALYZE ZTEAM")
        try execute("SET search_path TO public")
        return (container, schema)
    }

    /// A populated store (as `populatedStore`), our context on it and a postgres-nio connection
    /// to its schema: what the cases that read or change existing rows start from.
    func populatedPair(data: TeamData, rows: Int) throws -> (context: NSManagedObjectContext, connection: PostgresConnection, schema: String) {
        let (container, schema) = try populatedStore(data: data, rows: rows)
        return (CoreDataStack.context(container), try connect(schema: schema), schema)
    }

    /// Closes the direct variants' connections and drops every schema made since the last call.
    func dropSchemas() {
        let connections = connections
        self.connections = []
        try? blocking { for connection in connections { try await connection.close() } }
        for schema in schemas { try? execute("DROP SCHEMA \(schema) CASCADE") }
        schemas = []
    }

    func close() {
        dropSchemas()
        let admin = admin
        try? blocking { try await admin.close() }
    }
}
#endif
