import PostgresNIO

/// The statements one connection keeps prepared on the server, by shape: at most `capacity`,
/// the least recently used one given back to be deallocated when another comes in. A store
/// repeats a few shapes per entity and fetch, so a small bound keeps them all while an
/// application building many one-off shapes cannot pile statements up on the server.
///
/// It lives as long as its connection object, so a connection lent again from the pool finds
/// its statements; the server forgets them when the session ends, and so does this, with the
/// connection. Only prepared statements are put here, so a statement the server refused leaves
/// nothing behind.
struct PostgresNIOStatementCache {
    /// A statement, and the indices of the bound values it takes (`PostgresNIOStatementShape`).
    struct Prepared {
        let statement: PreparedQuery
        let parameters: [Int]
    }

    private struct Entry {
        let prepared: Prepared
        var lastUse: UInt64
    }

    private let capacity: Int
    private var entries: [PostgresNIOStatementShape: Entry] = [:]
    private var uses: UInt64 = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The statement prepared for `shape`, if any; counts as a use.
    mutating func statement(for shape: PostgresNIOStatementShape) -> Prepared? {
        uses += 1
        entries[shape]?.lastUse = uses
        return entries[shape]?.prepared
    }

    /// Keeps `statement` for `shape`; returns the statements it replaced or pushed out, which
    /// the caller deallocates.
    mutating func insert(_ prepared: Prepared, for shape: PostgresNIOStatementShape) -> [PreparedQuery] {
        uses += 1
        var evicted: [PreparedQuery] = []
        if let replaced = entries.updateValue(Entry(prepared: prepared, lastUse: uses), forKey: shape) {
            evicted.append(replaced.prepared.statement)
        }
        if entries.count > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries[oldest.key] = nil
            evicted.append(oldest.value.prepared.statement)
        }
        return evicted
    }

    /// Forgets the statement of `shape` (the server refused to run it as prepared); returns it
    /// to be deallocated.
    mutating func remove(_ shape: PostgresNIOStatementShape) -> PreparedQuery? {
        entries.removeValue(forKey: shape)?.prepared.statement
    }
}
