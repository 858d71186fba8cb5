/// What a migration does with one entity.
public enum NSEntityMappingType: UInt, Sendable {
    /// No type set yet.
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
    /// Whether instances are added, removed, copied, transformed or left to a custom policy.
    open var mappingType: NSEntityMappingType = .undefinedEntityMappingType
    /// The entity instances come from; nil for an added entity.
    open var sourceEntityName: String?
    /// The source entity's version hash, as inference records it; informational.
    open var sourceEntityVersionHash: Data?
    /// The entity instances become; nil for a removed entity.
    open var destinationEntityName: String?
    /// The destination entity's version hash, as inference records it; informational.
    open var destinationEntityVersionHash: Data?
    /// How each destination attribute is computed, by name.
    open var attributeMappings: [NSPropertyMapping]?
    /// How each destination relationship is computed; run in the second pass, after every instance exists.
    open var relationshipMappings: [NSPropertyMapping]?
    /// The source instances to migrate, usually `FETCH(FUNCTION($manager,
    /// "fetchRequestForSourceEntityNamed:predicateString:", "Person", "TRUEPREDICATE"), …)`;
    /// nil means every instance of the source entity (subentities excluded).
    open var sourceExpression: NSExpression?
    /// The `NSEntityMigrationPolicy` subclass that migrates these instances; nil uses the base class.
    open var entityMigrationPolicyClassName: String?
    /// Anything your policy wants to carry with the mapping; the manager does not read it.
    open var userInfo: [AnyHashable: Any]?

    /// An empty mapping; set its name, type and entity names before use.
    public override init() { super.init() }
}
