/// The live ordered set `mutableOrderedSetValue(forKey:)` returns: every change made to it is
/// made to the relationship (and its inverse) at once.
///
/// Foundation's ordered set reads its own storage through non-overridable members on Linux, so
/// the proxy mirrors the members in that storage and forwards each mutation to the owner too.
final class RelationshipOrderedSetProxy: NSMutableOrderedSet {
    private var owner: NSManagedObject?
    private var key = ""

    init(owner: NSManagedObject, key: String) {
        super.init(capacity: 0)
        for member in owner.toManyMembers(forKey: key).objects { super.add(member) }
        self.owner = owner
        self.key = key
    }

    override init(capacity: Int) { super.init(capacity: capacity) }
    required init?(coder: NSCoder) { nil }
    required convenience init(arrayLiteral elements: Any...) { self.init(capacity: 0) }

    override func add(_ object: Any) {
        insert(object, at: count)
    }
    override func addObjects(from array: [Any]) {
        for object in array { add(object) }
    }
    override func insert(_ object: Any, at index: Int) {
        guard let member = object as? NSManagedObject, super.index(of: member) == NSNotFound else { return }
        // A member of another context is refused (and recorded) before the mirror takes it.
        if let owner, owner.refusesExternal(member, forKey: key) { return }
        super.insert(member, at: index)
        owner?.addToMany(member, forKey: key, at: index)
    }
    override func remove(_ object: Any) {
        guard let member = object as? NSManagedObject, super.index(of: member) != NSNotFound else { return }
        super.remove(member)
        owner?.removeFromToMany(member, forKey: key)
    }
    override func removeObject(at index: Int) {
        remove(object(at: index))
    }
    override func removeAllObjects() {
        for member in array { remove(member) }
    }
    override func replaceObject(at index: Int, with object: Any) {
        removeObject(at: index)
        insert(object, at: index)
    }
}
