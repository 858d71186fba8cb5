/// A set of managed objects compared by identity: the context's change tracking.
///
/// `Set<NSManagedObject>` compares members with `NSObject`'s `==`, which calls `isEqual(_:)`
/// with the other member boxed in `Any?`, a costly call, and a look-up compares with each
/// member it probes. Every property change puts its object into one of the
/// context's sets, so these key by `ObjectIdentifier` instead, which is what equality of managed
/// objects means. The public API hands out `Set<NSManagedObject>` (`objects`).
struct ManagedObjectSet: Sequence, ExpressibleByArrayLiteral {
    private var members: [ObjectIdentifier: NSManagedObject] = [:]
    /// The member inserted last, while it is one. An object usually changes several
    /// properties in a row, and each change inserts it again: this answers those inserts
    /// without hashing (five of every inserted object's fourteen hash look-ups).
    private var lastInserted: ObjectIdentifier?

    init() {}

    init(arrayLiteral objects: NSManagedObject...) {
        self.init(objects)
    }

    init(_ objects: some Sequence<NSManagedObject>) {
        for object in objects { members[ObjectIdentifier(object)] = object }
    }

    var isEmpty: Bool { members.isEmpty }
    var count: Int { members.count }

    func contains(_ object: NSManagedObject) -> Bool {
        members[ObjectIdentifier(object)] != nil
    }

    /// Adds `object`; false when it was already a member.
    @discardableResult
    mutating func insert(_ object: NSManagedObject) -> Bool {
        let id = ObjectIdentifier(object)
        if id == lastInserted { return false }
        lastInserted = id
        return members.updateValue(object, forKey: id) == nil
    }

    @discardableResult
    mutating func remove(_ object: NSManagedObject) -> NSManagedObject? {
        let id = ObjectIdentifier(object)
        if id == lastInserted { lastInserted = nil }
        return members.removeValue(forKey: id)
    }

    func filter(_ isIncluded: (NSManagedObject) throws -> Bool) rethrows -> ManagedObjectSet {
        var result = ManagedObjectSet()
        result.members = try members.filter { try isIncluded($0.value) }
        return result
    }

    func subtracting(_ other: ManagedObjectSet) -> ManagedObjectSet {
        filter { !other.contains($0) }
    }

    func union(_ other: ManagedObjectSet) -> ManagedObjectSet {
        var result = self
        result.members.merge(other.members) { current, _ in current }
        return result
    }

    /// The members as the public API gives them.
    var objects: Set<NSManagedObject> { Set(members.values) }

    func makeIterator() -> Dictionary<ObjectIdentifier, NSManagedObject>.Values.Iterator {
        members.values.makeIterator()
    }
}
