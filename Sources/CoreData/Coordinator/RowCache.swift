import DequeModule

/// The rows a coordinator's contexts have read or saved, shared by all of them (Apple's row
/// cache): a fault whose row any context already read fires without SQL, and a context that
/// merges another's save reads the saved rows from here.
///
/// Each entry keeps the newest version (Z_OPT) seen for its object and when it was stored, so a
/// context's `stalenessInterval` can refuse old entries (0 refuses all; negative accepts any
/// age). Entries leave when their object is deleted, when a batch request changed rows behind
/// the cache's back, and oldest first once `capacity` is reached: the cache bounds its memory
/// and a miss only costs a read.
final class RowCache: Sendable {
    private struct Entry {
        let row: RowSnapshot
        let storedAt: UInt64
    }

    private struct State {
        var entries = ObjectIDMap<Entry>()
        /// Insertion order, for eviction; may name objects already removed.
        var order = Deque<NSManagedObjectID>()

        /// Drops the oldest entries while there are more than `capacity`, and IDs of entries
        /// already gone once the order lists twice as many. O(1) amortised: each ID appended is
        /// popped at most once.
        mutating func evictOverCapacity(_ capacity: Int) {
            while entries.count > capacity || order.count > 2 * capacity, let oldest = order.popFirst() {
                entries.removeValue(forKey: oldest)
            }
        }
    }

    let capacity: Int
    private let state = Locked(State())

    init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    /// The cached rows for `ids` no older than `stalenessInterval`, and the IDs not found.
    func rows(for ids: [NSManagedObjectID], stalenessInterval: TimeInterval) -> (found: [NSManagedObjectID: RowSnapshot], missing: [NSManagedObjectID]) {
        guard stalenessInterval != 0 else { return ([:], ids) }
        let oldest = stalenessInterval < 0 ? 0 : DispatchTime.now().uptimeNanoseconds &- UInt64(stalenessInterval * 1e9)
        var found: [NSManagedObjectID: RowSnapshot] = [:]
        var missing: [NSManagedObjectID] = []
        state.withLock { state in
            for id in ids {
                if let entry = state.entries[id], entry.storedAt >= oldest { found[id] = entry.row } else { missing.append(id) }
            }
        }
        return (found, missing)
    }

    /// Keeps `rows`, unless an entry holds a newer version of the same object; the oldest
    /// entries leave as new ones come.
    ///
    /// A batch larger than the whole cache is not added: it would push out every entry to keep
    /// an arbitrary tail of itself, and grow the table to its full size for rows the fetching
    /// context already holds. It still brings up to date the entries the cache has for its
    /// objects, so that none is older than what was just read.
    func store(_ rows: some Collection<RowSnapshot>) {
        let now = DispatchTime.now().uptimeNanoseconds
        let adds = rows.count <= capacity
        state.withLock { state in
            if adds {
                state.entries.reserveCapacity(min(capacity, state.entries.count + rows.count) + 1)
            } else if state.entries.count == 0 {
                return
            }
            // The entry is made only where it is kept: a batch that does not add mostly names
            // objects the cache does not hold, and making one costs a retain of the row's parts.
            for row in rows {
                if !adds {
                    if let cached = state.entries[row.objectID], cached.row.version <= row.version {
                        state.entries[row.objectID] = Entry(row: row, storedAt: now)
                    }
                } else if let replaced = state.entries.updateValue(Entry(row: row, storedAt: now), forKey: row.objectID) {
                    // One look-up for the usual case, a row not cached or older than this one.
                    if replaced.row.version > row.version { state.entries[row.objectID] = replaced }
                } else {
                    state.order.append(row.objectID)
                    state.evictOverCapacity(capacity)
                }
            }
        }
    }

    func remove(_ ids: some Sequence<NSManagedObjectID>) {
        state.withLock { state in
            for id in ids { state.entries.removeValue(forKey: id) }
        }
    }

    func removeAll() {
        state.withLock { $0 = State() }
    }

    var count: Int { state.withLock { $0.entries.count } }
}
