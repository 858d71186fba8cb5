/// One query generation of a SQLite store: a reader connection held inside a read transaction,
/// which in WAL mode keeps seeing the database as it was when the transaction's first read ran,
/// whatever is committed after. Every context pinned to the generation reads through it (one
/// at a time; the lock is recursive because a read may start a nested one for subentities).
///
/// The transaction stays open while any token or context holds the generation, so the WAL
/// cannot be checkpointed past it and grows until the generation is released: pin for as long
/// as a consistent view is needed, as on Apple platforms.
final class QueryGeneration: @unchecked Sendable {
    /// The generation the reads on this call stack use, set by a pinned context around its
    /// reads of the store (a task-local value, so it never leaks to other contexts' reads).
    @TaskLocal static var pinned: QueryGeneration?

    private(set) weak var store: SQLiteStore?
    private let connection: SQLiteConnection
    private let lock = NSRecursiveLock()
    let label: String

    /// Opens `connection`'s read transaction and reads once, which fixes the snapshot now.
    init(store: SQLiteStore, connection: SQLiteConnection) throws {
        self.store = store
        self.connection = connection
        try connection.run("BEGIN DEFERRED")
        try connection.query("SELECT 1 FROM Z_METADATA LIMIT 1") { _ in }
        label = "\(store.identifier ?? "")#\(UUID().uuidString.prefix(8))"
    }

    deinit {
        _ = try? connection.run("ROLLBACK")
    }

    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }
}
