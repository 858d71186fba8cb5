/// A dictionary keyed by object IDs that compares keys without `NSObject`'s `==`.
///
/// Swift's `Dictionary` keeps no hashes beside its keys, so a look-up compares the key with
/// every occupied bucket it probes; with `NSManagedObjectID` keys each comparison was a call to
/// `isEqual(_:)` with the key boxed in `Any?`, together a sixth of fetching a row. Keys here
/// are wrapped in a struct whose `==` compares IDs directly (`identifies(sameObjectAs:)`).
/// Contexts register their objects and rows in these, as does the coordinator's row cache.
struct ObjectIDMap<Value>: Sequence, ExpressibleByDictionaryLiteral {
    private struct Entry: Hashable {
        let id: NSManagedObjectID
        /// `id`'s key kept beside it, so that probing a bucket compares a word in the table and
        /// loads the stored ID from the heap only when the keys match (a cache miss per probe in
        /// a table of 100,000 rows).
        let key: Int64

        init(id: NSManagedObjectID) {
            self.id = id
            key = id.name.key
        }

        static func == (lhs: Entry, rhs: Entry) -> Bool { lhs.key == rhs.key && lhs.id.identifies(sameObjectAs: rhs.id) }
        func hash(into hasher: inout Hasher) { hasher.combine(key) }
    }

    typealias Key = NSManagedObjectID

    private var storage: [Entry: Value] = [:]

    init() {}

    init(dictionaryLiteral elements: (NSManagedObjectID, Value)...) {
        for (id, value) in elements { storage[Entry(id: id)] = value }
    }

    subscript(id: NSManagedObjectID) -> Value? {
        get { storage[Entry(id: id)] }
        set { storage[Entry(id: id)] = newValue }
    }

    /// Stores `value` for `id` and returns the value it replaced: one look-up where reading
    /// the old value first and then assigning took two.
    @discardableResult
    mutating func updateValue(_ value: Value, forKey id: NSManagedObjectID) -> Value? {
        storage.updateValue(value, forKey: Entry(id: id))
    }

    /// Room for `minimumCapacity` entries, so that filling the map with a fetch's rows does not
    /// rehash it a dozen times on the way.
    mutating func reserveCapacity(_ minimumCapacity: Int) {
        storage.reserveCapacity(minimumCapacity)
    }

    @discardableResult
    mutating func removeValue(forKey id: NSManagedObjectID) -> Value? {
        storage.removeValue(forKey: Entry(id: id))
    }

    var count: Int { storage.count }
    var isEmpty: Bool { storage.isEmpty }
    var keys: some Collection<NSManagedObjectID> { storage.keys.lazy.map(\.id) }
    var values: Dictionary<some Hashable, Value>.Values { storage.values }

    func makeIterator() -> some IteratorProtocol<(key: NSManagedObjectID, value: Value)> {
        storage.lazy.map { (key: $0.key.id, value: $0.value) }.makeIterator()
    }
}
