import Synchronization

/// One kind of object in a model: its name, class, properties and place in an inheritance tree.
open class NSEntityDescription: NSObject, @unchecked Sendable {
    /// The entity's name, unique in its model; a root entity's table is `Z` + the uppercased name.
    public var name: String? { willSet { requireEditable("name") } }
    /// The class instantiated for this entity; resolved through `ManagedObjectClassRegistry`.
    public var managedObjectClassName: String! = "NSManagedObject" { willSet { requireEditable("managedObjectClassName") } }
    /// Whether the entity exists only as the parent of others.
    public var isAbstract: Bool = false { willSet { requireEditable("isAbstract") } }
    /// Anything you want to keep with the entity; the framework does not read it.
    public var userInfo: [AnyHashable: Any]? = nil { willSet { requireEditable("userInfo") } }
    /// Sets of property names whose combined values must be unique, e.g. `[["name"]]`.
    public var uniquenessConstraints: [[Any]] = [] { willSet { requireEditable("uniquenessConstraints") } }
    /// Fetch indexes, which the SQLite store creates as indexes on the entity's table.
    public var indexes: [NSFetchIndexDescription] = [] {
        willSet { requireEditable("indexes") }
        didSet { for index in indexes { index.entity = self } }
    }
    /// Changes `versionHash` when nothing else in the entity does, to force a migration
    /// (for example when only what a column means changed).
    public var versionHashModifier: String? { willSet { requireEditable("versionHashModifier") } }
    /// The entity's name in an earlier model version, so a lightweight migration carries its
    /// rows over instead of dropping one entity and adding another.
    public var renamingIdentifier: String? { willSet { requireEditable("renamingIdentifier") } }
    /// The model the entity belongs to; weak, as the model holds its entities.
    public internal(set) weak var managedObjectModel: NSManagedObjectModel!
    /// The parent entity whose properties this one inherits; set through the parent's `subentities`.
    /// Read (through `rootEntity`) on every row a store writes; set only while the model is
    /// edited, so it skips the runtime's exclusivity check.
    @exclusivity(unchecked) public private(set) weak var superentity: NSEntityDescription?

    private var ownProperties: [NSPropertyDescription] = []
    private var ownSubentities: [NSEntityDescription] = []
    /// `properties` and the by-name tables, valid while no model edit happened since (the lock
    /// makes the lazy fill safe from any context's queue).
    private let indexCache = Locked<PropertyIndex?>(nil)
    /// The index built when the model froze. From then on the model cannot change, so every
    /// lookup reads it with one acquiring load instead of taking `indexCache`'s lock: contexts
    /// on several cores decode rows at once, and one lock per property lookup serialised them.
    private let frozenIndex = Atomic<Unmanaged<PropertyIndex>?>(nil)

    /// The number stored in each row's Z_ENT column, assigned by the model before it is in use;
    /// read for every row a store writes, without the runtime's exclusivity check.
    @exclusivity(unchecked) var entityNumber: Int = 0

    /// An empty entity; set its name and properties.
    public override init() { super.init() }

    /// A convenience for building models in code.
    ///
    /// For example:
    /// ```swift
    /// let person = NSEntityDescription(name: "Person", properties: [
    ///     NSAttributeDescription(name: "name", type: .stringAttributeType),
    /// ])
    /// ```
    public convenience init(name: String, className: String? = nil, properties: [NSPropertyDescription]) {
        self.init()
        self.name = name
        self.managedObjectClassName = className ?? "NSManagedObject"
        self.properties = properties
    }

    /// Inherited properties first, then this entity's own, as Apple lists them.
    public var properties: [NSPropertyDescription] {
        get { propertyIndex.properties }
        set {
            requireEditable("properties")
            let inherited = Set((superentity?.properties ?? []).map(ObjectIdentifier.init))
            ownProperties = newValue.filter { !inherited.contains(ObjectIdentifier($0)) }
            for property in ownProperties { property.entity = self }
            PropertyIndex.noteEdit()
        }
    }

    /// The direct children of this entity; setting them makes this entity their `superentity`.
    public var subentities: [NSEntityDescription] {
        get { ownSubentities }
        set {
            requireEditable("subentities")
            ownSubentities = newValue
            for sub in newValue { sub.superentity = self }
            PropertyIndex.noteEdit()
        }
    }

    /// Every property, inherited ones included, by name.
    public var propertiesByName: [String: NSPropertyDescription] { propertyIndex.byName }

    /// The attributes among `propertiesByName`.
    public var attributesByName: [String: NSAttributeDescription] { propertyIndex.attributesByName }

    /// The relationships among `propertiesByName`.
    public var relationshipsByName: [String: NSRelationshipDescription] { propertyIndex.relationshipsByName }

    deinit {
        frozenIndex.load(ordering: .acquiring)?.release()
    }

    /// Builds the index for good; called as the model freezes. The first call wins.
    func freezePropertyIndex() {
        let built = Unmanaged.passRetained(buildPropertyIndex(generation: PropertyIndex.frozenGeneration))
        let (exchanged, _) = frozenIndex.compareExchange(expected: nil, desired: built, ordering: .acquiringAndReleasing)
        if !exchanged { built.release() }
    }

    /// The frozen index, or the one for the current model edit generation, rebuilt if the
    /// model changed since.
    var propertyIndex: PropertyIndex {
        if let frozen = frozenIndex.load(ordering: .acquiring) { return frozen.takeUnretainedValue() }
        let generation = PropertyIndex.editGeneration.load(ordering: .sequentiallyConsistent)
        if let index = indexCache.withLock({ $0 }), index.generation == generation { return index }
        let index = buildPropertyIndex(generation: generation)
        indexCache.withLock { $0 = index }
        return index
    }

    /// Inherited properties first, then this entity's own.
    private func buildPropertyIndex(generation: Int) -> PropertyIndex {
        PropertyIndex(properties: (superentity?.properties ?? []) + ownProperties, generation: generation)
    }

    /// The relationships of this entity that point at `entity`.
    public func relationships(forDestination entity: NSEntityDescription) -> [NSRelationshipDescription] {
        properties.compactMap { $0 as? NSRelationshipDescription }.filter { $0.destinationEntity === entity }
    }

    /// Whether this entity is `entity` or inherits from it.
    public func isKindOf(entity: NSEntityDescription) -> Bool {
        var current: NSEntityDescription? = self
        while let candidate = current {
            if candidate === entity { return true }
            current = candidate.superentity
        }
        return false
    }

    /// The entity at the top of the inheritance tree; it owns the SQLite table.
    var rootEntity: NSEntityDescription { superentity?.rootEntity ?? self }

    /// This entity and every entity that inherits from it.
    var selfAndDescendants: [NSEntityDescription] {
        [self] + ownSubentities.flatMap(\.selfAndDescendants)
    }

    /// A hash of what the store depends on, so a store made with another model is recognised
    /// (see `VersionHash` for what goes in).
    public var versionHash: Data { VersionHash.of(self) }

    /// The entity called `entityName` in the context's model.
    public class func entity(forEntityName entityName: String, in context: NSManagedObjectContext) -> NSEntityDescription? {
        context.persistentStoreCoordinator?.managedObjectModel.entitiesByName[entityName]
    }

    /// Creates an object of the named entity, of its registered class, inserted into `context`.
    public class func insertNewObject(forEntityName entityName: String, into context: NSManagedObjectContext) -> NSManagedObject {
        guard let entity = entity(forEntityName: entityName, in: context) else {
            preconditionFailure("CoreData: no entity named '\(entityName)' in the context's model")
        }
        let objectClass = ManagedObjectClassRegistry.shared.objectClass(for: entity)
        return objectClass.init(_entity: entity, insertInto: context)
    }

    /// A detached copy (without sub/superentity links) for building a merged model.
    func copyEntity() -> NSEntityDescription {
        let copy = NSEntityDescription()
        copy.name = name
        copy.managedObjectClassName = managedObjectClassName
        copy.isAbstract = isAbstract
        copy.userInfo = userInfo
        copy.uniquenessConstraints = uniquenessConstraints
        copy.indexes = indexes.map { $0.copy() as! NSFetchIndexDescription }
        copy.versionHashModifier = versionHashModifier
        copy.renamingIdentifier = renamingIdentifier
        copy.properties = ownProperties.map { $0.copyProperty() }
        return copy
    }
}
