/// The loaded members of one to-many relationship: insertion order (which is the order of an
/// ordered relationship) plus identity membership for O(1) `contains`.
struct ToManyMembers {
    private(set) var objects: [NSManagedObject] = []
    private var identities: Set<ObjectIdentifier> = []

    init(_ objects: [NSManagedObject] = []) {
        for object in objects { append(object) }
    }

    func contains(_ object: NSManagedObject) -> Bool { identities.contains(ObjectIdentifier(object)) }

    var count: Int { objects.count }

    @discardableResult
    mutating func append(_ object: NSManagedObject) -> Bool {
        insert(object, at: objects.count)
    }

    @discardableResult
    mutating func insert(_ object: NSManagedObject, at index: Int) -> Bool {
        guard identities.insert(ObjectIdentifier(object)).inserted else { return false }
        objects.insert(object, at: min(index, objects.count))
        return true
    }

    @discardableResult
    mutating func remove(_ object: NSManagedObject) -> Bool {
        guard identities.remove(ObjectIdentifier(object)) != nil else { return false }
        objects.removeAll { $0 === object }
        return true
    }
}
