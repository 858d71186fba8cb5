/// The live set `mutableSetValue(forKey:)` returns: reading it reads the relationship, and adding
/// or removing members changes the relationship (and its inverse) at once, as Apple's proxy does.
final class RelationshipSetProxy: NSMutableSet {
    private var owner: NSManagedObject?
    private var key = ""

    init(owner: NSManagedObject, key: String) {
        self.owner = owner
        self.key = key
        super.init(capacity: 0)
    }

    required init(capacity: Int) { super.init(capacity: capacity) }
    required init?(coder: NSCoder) { nil }
    required convenience init(arrayLiteral elements: Any...) { self.init(capacity: 0) }

    private var members: [NSManagedObject] { owner?.toManyMembers(forKey: key).objects ?? [] }

    override var count: Int { members.count }
    override func member(_ object: Any) -> Any? {
        guard let object = object as? NSManagedObject else { return nil }
        return owner?.toManyMembers(forKey: key).contains(object) == true ? object : nil
    }
    override func objectEnumerator() -> NSEnumerator { NSArray(array: members).objectEnumerator() }
    override func add(_ object: Any) {
        if let object = object as? NSManagedObject { owner?.addToMany(object, forKey: key, at: nil) }
    }
    override func remove(_ object: Any) {
        if let object = object as? NSManagedObject { owner?.removeFromToMany(object, forKey: key) }
    }
    override func removeAllObjects() {
        for object in members { remove(object) }
    }
}
