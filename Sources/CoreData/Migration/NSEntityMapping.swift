/// What a migration does with one entity.
public enum NSEntityMappingType: UInt, Sendable {
    case undefinedEntityMappingType = 0
    /// Run by the mapping's `entityMigrationPolicyClassName` policy alone.
    case customEntityMappingType = 1
    /// A destination entity with no source: no instances are made.
    case addEntityMappingType = 2
    /// A source entity with no destination: its instances are dropped.
    case removeEntityMappingType = 3
    /// The same shape in both models: instances copied as they are.
    case copyEntityMappingType = 4
    /// Instances copied through the attribute and relationship mappings.
    case transformEntityMappingType = 5
}

/// How instances of one source entity become instances of one destination entity.
open class NSEntityMapping: NSObject, @unchecked Sendable {
    /// Unique in its mapping model; Apple's inferred names read `PersonToPerson`.
    open var name: String!
    open var mappingType: NSEntityMappingType = .undefinedEntityMappingType
    open var sourceEntityName: String?
    open var sourceEntityVersionHash: Data?
    open var destinationEntityName: String?
    open var destinationEntityVersionHash: Data?
    open var attributeMappings: [NSPropertyMapping]?
    open var relationshipMappings: [NSPropertyMapping]?
    /// The source instances to migrate, usually `FETCH(FUNCTION($manager,
    /// "fetchRequestForSourceEntityNamed:predicateString:", "Person", "TRUEPREDICATE"), …)`;
    /// nil means every instance of the source entity (subentities excluded).
    open var sourceExpression: NSExpression?
    /// The `NSEntityMigrationPolicy` subclass that migrates these instances; nil uses the base class.
    open var entityMigrationPolicyClassName: String?
    open var userInfo: [AnyHashable: Any]?

    public override init() { super.init() }
}
