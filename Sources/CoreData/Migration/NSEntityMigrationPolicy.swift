/// The steps that migrate the instances of one entity mapping. `NSMigrationManager` calls them
/// in three passes over the mapping model's entity mappings, as Apple's does:
///
/// 1. `begin(_:with:)`, `createDestinationInstances(forSource:in:manager:)` for each source
///    instance, `endInstanceCreation(forMapping:manager:)`;
/// 2. `createRelationships(forDestination:in:manager:)` for each destination instance the first
///    pass made, `endRelationshipCreation(forMapping:manager:)`;
/// 3. the destination instances are validated, then `performCustomValidation(forMapping:manager:)`
///    and `end(_:manager:)`.
///
/// A mapping names its subclass in `entityMigrationPolicyClassName`, which is found among the
/// loaded classes by bare or module-qualified name, as `managedObjectClassName` is.
///
/// For example, a policy that splits one attribute into two:
/// ```swift
/// final class SplitNamePolicy: NSEntityMigrationPolicy {
///     override func createDestinationInstances(forSource source: NSManagedObject, in mapping: NSEntityMapping,
///                                              manager: NSMigrationManager) throws {
///         try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
///         let person = manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source])[0]
///         let parts = (source.value(forKey: "fullName") as? String ?? "").split(separator: " ", maxSplits: 1)
///         person.setValue(parts.first.map(String.init), forKey: "firstName")
///         person.setValue(parts.dropFirst().first.map(String.init), forKey: "lastName")
///     }
/// }
/// ```
open class NSEntityMigrationPolicy: NSObject {
    /// Required: the manager makes policies from their class alone.
    public required override init() { super.init() }

    /// First pass, before any instance of `mapping` is made; the base does nothing.
    open func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws {}

    /// Makes the destination instance of `sInstance` for a copy or transform mapping, sets each
    /// attribute from its mapping's `valueExpression`, and associates the two; a custom
    /// mapping is left to the subclass.
    open func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping,
                                         manager: NSMigrationManager) throws {
        guard [.copyEntityMappingType, .transformEntityMappingType].contains(mapping.mappingType),
              let entityName = mapping.destinationEntityName else { return }
        let destination = NSEntityDescription.insertNewObject(forEntityName: entityName, into: manager.destinationContext)
        for propertyMapping in mapping.attributeMappings ?? [] {
            guard let name = propertyMapping.name, let expression = propertyMapping.valueExpression else { continue }
            destination.setValue(try manager.evaluate(expression, source: sInstance, mapping: mapping, policy: self), forKey: name)
        }
        manager.associate(sourceInstance: sInstance, withDestinationInstance: destination, for: mapping)
    }

    /// First pass, after every source instance of `mapping` was handled; the base does nothing.
    open func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    /// Sets each relationship of `dInstance` from its mapping's `valueExpression`, evaluated on
    /// the source instance it was made from. Source objects in the value (as `$source.owner`
    /// gives) become the destination instances they were migrated to; destination objects (as
    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", …)`
    /// gives) are kept.
    open func createRelationships(forDestination dInstance: NSManagedObject, in mapping: NSEntityMapping,
                                  manager: NSMigrationManager) throws {
        guard let mappingName = mapping.name, let relationshipMappings = mapping.relationshipMappings, !relationshipMappings.isEmpty,
              let source = manager.sourceInstances(forEntityMappingName: mappingName, destinationInstances: [dInstance]).first else { return }
        for propertyMapping in relationshipMappings {
            guard let name = propertyMapping.name, let expression = propertyMapping.valueExpression,
                  let relationship = dInstance.entity.relationshipsByName[name] else { continue }
            let value = try manager.evaluate(expression, source: source, mapping: mapping, policy: self)
            let members = manager.destinationObjects(migratedFrom: value, as: relationship.destinationEntity)
            if !relationship.isToMany {
                dInstance.setValue(members.first, forKey: name)
            } else if relationship.isOrdered {
                dInstance.setValue(NSOrderedSet(array: members), forKey: name)
            } else {
                dInstance.setValue(NSSet(array: members), forKey: name)
            }
        }
    }

    /// Second pass, after every destination instance of `mapping` was linked; the base does nothing.
    open func endRelationshipCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    /// Third pass, after the destination instances passed validation; throw to fail the migration.
    open func performCustomValidation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    /// Third pass, last call for `mapping`; the base does nothing.
    open func end(_ mapping: NSEntityMapping, manager: NSMigrationManager) throws {}

    /// Answers `FUNCTION($entityPolicy, "selector:", arguments…)` in the mapping's value
    /// expressions, as Xcode's mapping editor writes them for a custom policy's methods.
    ///
    /// Apple's framework sends the selector to the policy object. Swift on Linux has no
    /// Objective-C messaging, so a policy that offers such functions overrides this method,
    /// answers the selectors it knows and passes the others to `super`, which throws
    /// `NSEntityMigrationPolicyError` (134170). Arguments arrive evaluated: managed objects
    /// as objects, to-many values as arrays, numbers as `NSNumber` or Swift numbers.
    ///
    /// For example, for `FUNCTION($entityPolicy, "fullNameWithFirst:last:", $source.first, $source.last)`:
    /// ```swift
    /// override func performFunction(_ selector: String, arguments: [Any?]) throws -> Any? {
    ///     switch selector {
    ///     case "fullNameWithFirst:last:":
    ///         return arguments.compactMap { $0 as? String }.joined(separator: " ")
    ///     default:
    ///         return try super.performFunction(selector, arguments: arguments)
    ///     }
    /// }
    /// ```
    open func performFunction(_ selector: String, arguments: [Any?]) throws -> Any? {
        throw CoreDataError.make(NSEntityMigrationPolicyError,
            "\(type(of: self)) does not answer FUNCTION($entityPolicy, \"\(selector)\", …); override performFunction(_:arguments:) to answer it")
    }
}

/// `FUNCTION($entityPolicy, …)` reaches the policy's overridable `performFunction(_:arguments:)`.
extension NSEntityMigrationPolicy: ExpressionMethodReceiver {
    func performExpressionMethod(_ selector: String, arguments: [Any?]) throws -> Any? {
        try performFunction(selector, arguments: arguments)
    }
}
