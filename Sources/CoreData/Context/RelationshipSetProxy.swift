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

/// The live ordered set `mutableOrderedSetValue(forKey:)` returns.
final class RelationshipOrderedSetProxy: NSMutableOrderedSet {
    private var owner: NSManagedObject?
    private var key = ""

    init(owner: NSManagedObject, key: String) {
        self.owner = owner
        self.key = key
        super.init(capacity: 0)
    }

    override init(capacity: Int) { super.init(capacity: capacity) }
    required init?(coder: NSCoder) { nil }
    required convenience init(arrayLiteral elements: Any...) { self.init(capacity: 0) }

    private var members: [NSManagedObject] { owner?.toManyMembers(forKey: key).objects ?? [] }

    override var count: Int { members.count }
    override var array: [Any] { members }
    override func object(at index: Int) -> Any { members[index] }
    override func index(of object: Any) -> Int {
        guard let object = object as? NSManagedObject else { return NSNotFound }
        return members.firstIndex { $0 === object } ?? NSNotFound
    }
    override func contains(_ object: Any) -> Bool { index(of: object) != NSNotFound }
    override func objectEnumerator() -> NSEnumerator { NSArray(array: members).objectEnumerator() }
    override func add(_ object: Any) {
        if let object = object as? NSManagedObject { owner?.addToMany(object, forKey: key, at: nil) }
    }
    override func addObjects(from array: [Any]) {
        for object in array { add(object) }
    }
    override func insert(_ object: Any, at index: Int) {
        if let object = object as? NSManagedObject { owner?.addToMany(object, forKey: key, at: index) }
    }
    override func remove(_ object: Any) {
        if let object = object as? NSManagedObject { owner?.removeFromToMany(object, forKey: key) }
    }
    override func removeObject(at index: Int) { remove(members[index]) }
    override func removeAllObjects() {
        for object in members { remove(object) }
    }
    override func replaceObject(at index: Int, with object: Any) {
        removeObject(at: index)
        insert(object, at: index)
    }
}
