/// One query generation: a connection of a store held inside a read transaction whose snapshot
/// the first read fixed, so it keeps seeing the data as committed then, whatever is committed
/// after (a reader in WAL mode on SQLite, a `REPEATABLE READ` transaction on PostgreSQL). Every
/// context pinned to the generation reads through it, one read at a time: a connection runs one
/// statement at a time, and the lock is recursive because a read may start a nested one for
/// subentities.
///
/// The connection is the generation's alone, outside the store's pool, so that pinned contexts
/// never make other readers or the writer wait. Its transaction stays open while any token or
/// context holds the generation, which costs the database what an old snapshot costs (SQLite
/// cannot checkpoint the WAL past it, PostgreSQL cannot vacuum the rows it may still see): pin
/// for as long as a consistent view is needed, as on Apple platforms.
final class QueryGeneration: @unchecked Sendable {
    /// The generation the reads on this call stack use, set by a pinned context around its
    /// reads of the store (a task-local value, so it never leaks to other contexts' reads).
    @TaskLocal static var pinned: QueryGeneration?

    private(set) weak var store: NSPersistentStore?
    let label: String
    /// The store's `Session`; `init` ties the two types together, which makes `read`'s cast safe.
    private let session: Any
    private let release: () -> Void
    private let lock = NSRecursiveLock()

    /// - parameter session: a connection of `store` inside a read transaction that has read
    ///   once already.
    /// - parameter release: ends that transaction and lets the connection go; runs when the
    ///   last token or context lets the generation go.
    init<Store: QueryGenerationStore>(store: Store, session: Store.Session, release: @escaping () -> Void) {
        self.store = store
        self.session = session
        self.release = release
        label = "\(store.identifier ?? "")#\(UUID().uuidString.prefix(8))"
    }

    deinit {
        release()
    }

    /// Runs `body` on the generation's connection; `store` must be the store that made it.
    func read<Store: QueryGenerationStore, T>(of store: Store, _ body: (Store.Session) throws -> T) throws -> T {
        precondition(self.store === store, "a query generation read through another store")
        lock.lock()
        defer { lock.unlock() }
        return try body(session as! Store.Session)
    }
}
