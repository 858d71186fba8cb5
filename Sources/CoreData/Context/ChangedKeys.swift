/// The names of an object's changed properties: a bit per property ordinal for the first 64
/// properties of its entity, names for the rest (and for keys that name no property).
///
/// Every change of every object lands in two of these (the changes since the last save and
/// those since the last objects-did-change notification). As `Set<String>` each insertion
/// hashed the name twice, a fifth of inserting and saving an object; a setter that knows its
/// property's ordinal now sets a bit.
///
/// Invariant: a name whose ordinal in `index` is below 64 is recorded only as its bit, so a
/// name is found in exactly one place.
struct ChangedKeys: Sequence {
    private let index: PropertyIndex
    private var bits: UInt64 = 0
    /// Changed keys without a bit: ordinals from 64 on, and keys that are not properties.
    private var others: Set<String> = []

    init(index: PropertyIndex) {
        self.index = index
    }

    private static let bitCount = UInt64.bitWidth

    private func bit(for name: String) -> UInt64? {
        guard let ordinal = index.ordinals[name], ordinal < Self.bitCount else { return nil }
        return 1 << UInt64(ordinal)
    }

    var isEmpty: Bool { bits == 0 && others.isEmpty }

    func contains(_ name: String) -> Bool {
        if let bit = bit(for: name) { return bits & bit != 0 }
        return others.contains(name)
    }

    /// Notes the property at `ordinal` of `index`: a bit, no hashing, when it has one.
    mutating func insert(ordinal: Int) {
        if ordinal < Self.bitCount {
            bits |= 1 << UInt64(ordinal)
        } else {
            others.insert(index.properties[ordinal].name)
        }
    }

    mutating func insert(_ name: String) {
        if let bit = bit(for: name) { bits |= bit } else { others.insert(name) }
    }

    @discardableResult
    mutating func remove(_ name: String) -> String? {
        if let bit = bit(for: name) {
            guard bits & bit != 0 else { return nil }
            bits &= ~bit
            return name
        }
        return others.remove(name)
    }

    mutating func removeAll() {
        bits = 0
        others.removeAll()
    }

    mutating func formUnion(_ names: some Sequence<String>) {
        for name in names { insert(name) }
    }

    /// Makes the keys exactly `names`.
    mutating func replace(with names: some Sequence<String>) {
        removeAll()
        formUnion(names)
    }

    func isDisjoint(with names: some Sequence<String>) -> Bool {
        !names.contains { contains($0) }
    }

    /// The keys as a set of names, for callers outside the object's own bookkeeping.
    var names: Set<String> { Set(self) }

    func makeIterator() -> some IteratorProtocol<String> {
        var remaining = bits
        var rest = others.makeIterator()
        let properties = index.properties
        return AnyIterator {
            if remaining != 0 {
                let ordinal = remaining.trailingZeroBitCount
                remaining &= remaining - 1
                return properties[ordinal].name
            }
            return rest.next()
        }
    }
}
