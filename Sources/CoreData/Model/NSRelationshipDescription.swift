/// What happens to related objects when the source object is deleted.
public enum NSDeleteRule: UInt, Sendable {
    /// Leave the destinations as they are, even if they point back at the deleted object.
    case noActionDeleteRule = 0
    /// Clear the inverse relationship of each destination.
    case nullifyDeleteRule = 1
    /// Delete the destinations too.
    case cascadeDeleteRule = 2
    /// Refuse the delete (1600 at save) while any destination remains.
    case denyDeleteRule = 3
}

/// A link from one entity to another, to-one or to-many, optionally ordered.
open class NSRelationshipDescription: NSPropertyDescription, @unchecked Sendable {
    /// The entity at the other end.
    public var destinationEntity: NSEntityDescription? { willSet { requireEditable("destinationEntity") } }
    /// The relationship back from the destination; the framework keeps both sides in step.
    public var inverseRelationship: NSRelationshipDescription? { willSet { requireEditable("inverseRelationship") } }
    /// What deleting the source does to its destinations.
    public var deleteRule: NSDeleteRule = .nullifyDeleteRule { willSet { requireEditable("deleteRule") } }
    /// 0 means no lower bound.
    public var minCount: Int = 0 { willSet { requireEditable("minCount") } }
    /// 0 means unbounded; 1 makes the relationship to-one.
    public var maxCount: Int = 1 { willSet { requireEditable("maxCount") } }
    /// Whether a to-many relationship keeps its order (an `NSOrderedSet`).
    public var isOrdered: Bool = false { willSet { requireEditable("isOrdered") } }

    /// Names kept until the model resolves them to descriptions (built in code or read from XML).
    var destinationEntityName: String?
    var inverseName: String?

    /// True unless `maxCount` is 1.
    public var isToMany: Bool { maxCount != 1 }

    /// A relationship with no destination yet.
    public override init() { super.init() }

    /// A convenience for building models in code; `inverse` and `destination` are resolved by name
    /// when the entities are added to an `NSManagedObjectModel`.
    public convenience init(
        name: String, destination: String, toMany: Bool = false, ordered: Bool = false,
        inverse: String? = nil, deleteRule: NSDeleteRule = .nullifyDeleteRule, optional: Bool = true
    ) {
        self.init()
        self.name = name
        self.destinationEntityName = destination
        self.maxCount = toMany ? 0 : 1
        self.isOrdered = ordered
        self.inverseName = inverse
        self.deleteRule = deleteRule
        self.isOptional = optional
    }

    override func copyProperty() -> NSPropertyDescription {
        let copy = NSRelationshipDescription()
        copyCommon(into: copy)
        copy.destinationEntityName = destinationEntity?.name ?? destinationEntityName
        copy.inverseName = inverseRelationship?.name ?? inverseName
        copy.deleteRule = deleteRule
        copy.minCount = minCount
        copy.maxCount = maxCount
        copy.isOrdered = isOrdered
        return copy
    }
}
