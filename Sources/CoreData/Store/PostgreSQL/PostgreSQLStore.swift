import Foundation

/// A store in one PostgreSQL schema, in Apple's table layout, shared by every process and
/// machine that opens the same URL (`NSPostgreSQLStoreType`, from `import CoreDataPostgreSQL`).
///
/// Reads borrow a pooled connection; a save is one PostgreSQL transaction that locks the rows
/// it checks (`SELECT … FOR UPDATE`), so optimistic locking holds between machines as it holds
/// between processes on SQLite. Primary keys come from `Z_PRIMARYKEY` by one atomic
/// `UPDATE … RETURNING`, so no two writers get the same key.
final class PostgreSQLStore: NSPersistentStore, SQLTableStore, HistoryTracking, QueryGenerationStore, @unchecked Sendable {
    var dialect: SQLDialect { .postgreSQL }
    private(set) var endpoint: PostgreSQLEndpoint!
    private var pool: PostgreSQLConnectionPool?
    /// The thread inside a write and its connection: that thread's reads must see the
    /// write's uncommitted rows.
    private let writing = Locked<(thread: pthread_t, session: PostgreSQLSession)?>(nil)
    /// Set once by `load(model:)` before any read.
    private(set) var catalog = SQLTableCatalog(dialect: .postgreSQL)
    /// Posts `.NSPersistentStoreRemoteChange` for other processes' commits, if the options ask.
    private var listener: (any PostgreSQLListener)?
    /// What `setMetadata(_:for:)` gave, written with the next save; only under the store's lock.
    var pendingMetadata: [String: Any]?

    /// Connections open at once per store.
    static let poolCapacity = ProcessInfo.processInfo.activeProcessorCount + 2

    deinit { close() }

    func load(model: NSManagedObjectModel) throws {
        guard let url, let connector = PostgreSQLDriver.connector else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError,
                "The PostgreSQL store type needs its driver: import CoreDataPostgreSQL and use NSPostgreSQLStoreType")
        }
        let endpoint = try PostgreSQLEndpoint(url: url)
        self.endpoint = endpoint
        catalog = SQLTableCatalog(model: model, dialect: .postgreSQL)
        let pool = PostgreSQLConnectionPool(connector: connector, endpoint: endpoint, capacity: Self.poolCapacity)
        self.pool = pool
        let stored = try mappingFailures { try pool.withConnection { try prepareSchema($0, model: model) } }
        guard model.isConfiguration(withName: configurationName, compatibleWithStoreMetadata: stored) else {
            throw CoreDataError.make(NSPersistentStoreIncompatibleVersionHashError,
                "The model used to open the store is incompatible with the one used to create the store in schema \(endpoint.schema)",
                [NSURLErrorKey: url, "metadata": stored])
        }
        metadata = stored
        identifier = stored[NSStoreUUIDKey] as? String
        if postsRemoteChanges {
            listener = try mappingFailures { try startListening(connector) }
        }
    }

    /// Creates the schema's tables on first open, or migrates them when they were written with
    /// an older model and the options ask for it (one creator or migrator at a time across
    /// machines), and returns the stored metadata.
    private func prepareSchema(_ session: PostgreSQLSession, model: NSManagedObjectModel) throws -> [String: Any] {
        try session.transaction {
            let lock = PostgreSQLSchema.creationLock(endpoint.schema)
            try session.write(lock.sql, lock.bindings)
            // Under the lock: two `CREATE SCHEMA IF NOT EXISTS` at once can both find no schema,
            // and the later insert into pg_namespace then fails with a unique violation (23505).
            try session.write("CREATE SCHEMA IF NOT EXISTS \(endpoint.schema)")
            for statement in PostgreSQLSchema.functionStatements { try session.write(statement) }
            if try session.scalar(PostgreSQLSchema.existsQuery) != .integer(1) {
                guard !isReadOnly else {
                    throw CoreDataError.make(NSPersistentStoreOpenError, "There is no store in schema \(endpoint.schema) to open read-only")
                }
                for statement in PostgreSQLSchema.createStatements(model: model, layouts: Array(catalog.layouts.values)) { try session.write(statement) }
                for entity in model.entities {
                    try session.write("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES ($1, $2, $3, 0)",
                                      [.integer(Int64(entity.entityNumber)), .text(entity.name ?? ""), .integer(Int64(entity.superentity?.entityNumber ?? 0))])
                }
                var initial = SQLiteStoreMetadata.initial(identifier: UUID().uuidString, model: model)
                initial[NSStoreTypeKey] = type
                try session.write("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, $1, $2)",
                                  [.text(initial[NSStoreUUIDKey] as! String), .blob(try SQLiteStoreMetadata.propertyList(of: initial))])
                try SQLModelCache.write(model: model, on: session)
            }
            if tracksHistory { for statement in PostgreSQLHistorySchema.createStatements { try session.write(statement) } }
            let stored = try readMetadata(session)
            guard !model.isConfiguration(withName: configurationName, compatibleWithStoreMetadata: stored), migratesAutomatically, !isReadOnly else {
                return stored
            }
            try migrate(session, metadata: stored, to: model)
            return try readMetadata(session)
        }
    }

    private func readMetadata(_ session: PostgreSQLSession) throws -> [String: Any] {
        var metadata: [String: Any] = [:]
        try session.query("SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1") { row in
            if case .blob(let bytes) = row.value(at: 1),
               let list = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: Any] {
                metadata = list
            }
            metadata[NSStoreUUIDKey] = row.text(at: 0)
        }
        return metadata
    }

    func close() {
        listener?.stop()
        listener = nil
        pool?.close()
        pool = nil
    }

    // MARK: Connections

    var storeName: String { "schema \(endpoint?.schema ?? "?")" }

    /// Runs `body` on the calling thread's write connection, on the connection of the query
    /// generation the calling context is pinned to, or on a pooled one.
    /// Every read is one statement or a few on one connection in autocommit mode; a fetch's
    /// statement sees one snapshot by itself.
    func read<T>(singleStatement: Bool, _ body: (PostgreSQLSession) throws -> T) throws -> T {
        let inside = writing.withLock { current in current.flatMap { pthread_equal($0.thread, pthread_self()) != 0 ? $0.session : nil } }
        if let inside { return try body(inside) }
        if let generation = pinnedGeneration { return try mappingFailures { try generation.read(of: self, body) } }
        return try mappingFailures { try connections().withConnection(body) }
    }

    /// A new query generation: a connection taken out of the pool, inside a read-only
    /// `REPEATABLE READ` transaction that has read once (which fixes its snapshot). Released, it
    /// rolls back and goes back to the pool, or is closed if it broke; a read through a broken
    /// one throws the lost connection like any read, until the context is pinned afresh.
    func makeQueryGeneration() throws -> QueryGeneration {
        try mappingFailures {
            let pool = try connections()
            let connection = try pool.detach()
            let session = PostgreSQLSession(connection: connection)
            do {
                try session.write("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                try session.query("SELECT 1 FROM Z_METADATA LIMIT 1") { _ in }
            } catch {
                pool.reattach(connection, healthy: false)
                throw error
            }
            return QueryGeneration(store: self, session: session) {
                pool.reattach(connection, healthy: connection.isOpen && (try? session.write("ROLLBACK")) != nil)
            }
        }
    }

    /// Runs `body` in one transaction under the store's lock (writes of one process queue
    /// here; writers of other processes meet at the rows they lock).
    func writeTransaction<T>(_ body: (PostgreSQLSession) throws -> T) throws -> T {
        if isReadOnly { throw CoreDataError.make(NSPersistentStoreSaveError, "The store in schema \(endpoint.schema) is read-only") }
        return try locked {
            if let session = writing.withLock({ $0?.session }) { return try body(session) }
            return try mappingFailures(saving: true) {
                try connections().withConnection { session in
                    writing.withLock { $0 = (pthread_self(), session) }
                    defer { writing.withLock { $0 = nil } }
                    return try session.transaction { try body(session) }
                }
            }
        }
    }

    private func connections() throws -> PostgreSQLConnectionPool {
        guard let pool else { throw CoreDataError.misuse("The PostgreSQL store in schema \(endpoint?.schema ?? "?") is not open") }
        return pool
    }

    // MARK: Writing

    func allocatePrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64] {
        let root = Int64(entity.rootEntity.entityNumber)
        let last = try read { session in
            try session.scalar("UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + $1 WHERE Z_ENT = $2 RETURNING Z_MAX", [.integer(Int64(count)), .integer(root)])
        }
        guard case .integer(let maximum)? = last else { throw CoreDataError.misuse("Z_PRIMARYKEY has no row for entity \(entity.name ?? "")") }
        return Array((maximum - Int64(count) + 1)...maximum)
    }
}

/// User-info keys of the PostgreSQL store's errors.
public enum PostgreSQLErrorKeys {
    /// `true` when the server could not be reached; the same call can succeed later.
    public static let connectionLost = "PostgreSQLConnectionLost"
    /// The SQLSTATE of a statement the server refused.
    public static let sqlState = "PostgreSQLSQLState"
}
