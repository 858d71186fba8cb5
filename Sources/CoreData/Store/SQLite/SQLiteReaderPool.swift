/// Reader connections to one store file in WAL mode, so that contexts read in parallel with each
/// other and with the writer (GRDB's `DatabasePool` is the model).
///
/// In WAL mode a reader sees the database as of the start of its read transaction and neither
/// blocks nor is blocked by the one writer. A `read` of several statements runs inside
/// `BEGIN DEFERRED … COMMIT`, so everything it reads (a fetch and the subentity look-ups its rows
/// need) comes from one snapshot; a single statement is a snapshot by itself and skips the two. Connections open lazily, at most `capacity` at once; a reader beyond that waits
/// for one to come back. Readers are `query_only`: a write through one fails instead of
/// bypassing the writer's lock.
final class SQLiteReaderPool: @unchecked Sendable {
    private let open: () throws -> SQLiteConnection
    /// Readers not in use; nil once the pool has closed, so that a reader checked out across
    /// the close is closed when its read ends instead of being put back.
    private let idle = Locked<[SQLiteConnection]?>([])
    private let available: DispatchSemaphore

    /// - parameter open: opens one more reader connection on the store's file.
    init(capacity: Int, open: @escaping () throws -> SQLiteConnection) {
        self.open = open
        available = DispatchSemaphore(value: capacity)
    }

    /// Runs `body` on a reader: inside one read transaction unless `body` runs a single
    /// statement.
    func read<T>(singleStatement: Bool, _ body: (SQLiteConnection) throws -> T) throws -> T {
        available.wait()
        defer { available.signal() }
        let reused: SQLiteConnection? = try idle.withLock { idle in
            guard idle != nil else { throw CoreDataError.misuse("The store's readers are closed") }
            return idle?.popLast()
        }
        let connection = try reused ?? open()
        // A connection closes when its last reference goes: dropping it here closes it.
        defer { idle.withLock { $0?.append(connection) } }
        if singleStatement { return try body(connection) }
        // Prepared once per connection, like every other statement (`execute` parses each time).
        try connection.run("BEGIN DEFERRED")
        do {
            let result = try body(connection)
            try connection.run("COMMIT")
            return result
        } catch {
            _ = try? connection.run("ROLLBACK")
            throw error
        }
    }

    /// One more reader connection that stays outside the pool (a query generation holds it).
    func openDedicatedReader() throws -> SQLiteConnection {
        try open()
    }

    /// Closes every idle reader now, and every reader still reading when its read ends (the
    /// store is closing).
    func close() {
        idle.withLock { $0 = nil }
    }

    /// How many readers wait for reuse (for tests of closing).
    var idleCount: Int { idle.withLock { $0?.count ?? 0 } }
}
