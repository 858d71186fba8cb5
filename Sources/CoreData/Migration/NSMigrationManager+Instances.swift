/// What value expressions and the default policy ask the manager: source fetch requests,
/// property mapping values, and the destination objects source objects became.
extension NSMigrationManager {
    /// A request for the instances of the source entity `name` (subentities excluded) that
    /// match `predicateString`: what Apple's mapping models fetch their source instances with.
    func fetchRequestForSourceEntityNamed(_ name: String, predicateString: String) throws -> NSFetchRequest<NSFetchRequestResult> {
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: name)
        request.includesSubentities = false
        request.predicate = try NSPredicate.parse(format: predicateString, argumentArray: [])
        return request
    }

    /// A property mapping's value for `source`, with `$source`, `$manager`, `$entityMapping`
    /// and `$entityPolicy` bound as Apple binds them.
    func evaluate(_ expression: NSExpression, source: NSManagedObject, mapping: NSEntityMapping, policy: NSEntityMigrationPolicy) throws -> Any? {
        try expression.value(with: source, variables: ["source": source, "manager": self, "entityMapping": mapping, "entityPolicy": policy])
    }

    /// The destination objects a relationship's value stands for: destination objects as they
    /// are, source objects replaced by what they were migrated to (of `entity`'s kind).
    func destinationObjects(migratedFrom value: Any?, as entity: NSEntityDescription?) -> [NSManagedObject] {
        let objects = (collectionElements(of: value) ?? [value]).compactMap { $0 as? NSManagedObject }
        return objects.flatMap { object -> [NSManagedObject] in
            if object.managedObjectContext === destinationContext { return [object] }
            return associations.destinations(of: object.objectID).map(destinationContext.object(with:))
                .filter { entity.map($0.entity.isKindOf(entity:)) ?? true }
        }
    }
}

/// The keys `$manager.…` may read in a mapping's expressions, as Xcode's
/// `FETCH(…, $manager.sourceContext, NO)` does.
extension NSMigrationManager: KeyValueReadable {
    func readValue(forKey key: String) -> Any? {
        switch key {
        case "sourceContext": sourceContext
        case "destinationContext": destinationContext
        case "sourceModel": sourceModel
        case "destinationModel": destinationModel
        case "mappingModel": mappingModel
        case "currentEntityMapping": currentEntityMapping
        case "migrationProgress": NSNumber(value: migrationProgress)
        case "userInfo": userInfo
        default: nil
        }
    }
}

/// The selectors `FUNCTION($manager, "…", …)` may call in a mapping's expressions.
extension NSMigrationManager: ExpressionMethodReceiver {
    func performExpressionMethod(_ selector: String, arguments: [Any?]) throws -> Any? {
        func text(_ index: Int) throws -> String {
            guard index < arguments.count, let value = ExpressionMethodCall.string(arguments[index]) else {
                throw PredicateError.semantic("\(selector) needs a string argument \(index + 1)")
            }
            return value
        }
        // A nil instance (`$source.owner` unset) stands for none, not for all.
        func instances(_ index: Int) -> [NSManagedObject] {
            guard index < arguments.count else { return [] }
            return (collectionElements(of: arguments[index]) ?? [arguments[index]]).compactMap { $0 as? NSManagedObject }
        }
        // Apple's selectors say `…MappingNamed:`; the `…MappingName:` spelling this library
        // documented before is still answered.
        switch selector {
        case "destinationInstancesForEntityMappingNamed:sourceInstances:", "destinationInstancesForEntityMappingName:sourceInstances:":
            return destinationInstances(forEntityMappingName: try text(0), sourceInstances: instances(1))
        case "sourceInstancesForEntityMappingNamed:destinationInstances:", "sourceInstancesForEntityMappingName:destinationInstances:":
            return sourceInstances(forEntityMappingName: try text(0), destinationInstances: instances(1))
        case "fetchRequestForSourceEntityNamed:predicateString:":
            return try fetchRequestForSourceEntityNamed(try text(0), predicateString: try text(1))
        default:
            throw PredicateError.semantic("NSMigrationManager does not support \(selector) in FUNCTION")
        }
    }
}
