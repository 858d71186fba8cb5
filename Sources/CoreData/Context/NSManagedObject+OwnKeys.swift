/// The keys `NSManagedObject` itself answers through key-value coding, as its Objective-C
/// properties do on Apple platforms (`value(forKey: "entity")`, `NSPredicate(format:
/// "entity == %@", entity)`, `isInserted` in a sort or filter).
extension NSManagedObject {
    /// Each key under the names Apple's key-value coding accepts: the property name and, for
    /// booleans, the getter's name (`inserted` and `isInserted`). Booleans read as `NSNumber`,
    /// as attributes do.
    private static let ownKeys: [String: @Sendable (NSManagedObject) -> Any?] = {
        var keys: [String: @Sendable (NSManagedObject) -> Any?] = [
            "self": { $0 },
            "entity": { $0.entity },
            "objectID": { $0.objectID },
            "managedObjectContext": { $0.managedObjectContext },
            "hasChanges": { NSNumber(value: $0.hasChanges) },
            "hasPersistentChangedValues": { NSNumber(value: $0.hasPersistentChangedValues) },
        ]
        let flags: [(String, @Sendable (NSManagedObject) -> Bool)] = [
            ("inserted", { $0.isInserted }), ("updated", { $0.isUpdated }),
            ("deleted", { $0.isDeleted }), ("fault", { $0.isFault }),
        ]
        for (name, flag) in flags {
            let read: @Sendable (NSManagedObject) -> Any? = { NSNumber(value: flag($0)) }
            keys[name] = read
            keys["is" + name.prefix(1).uppercased() + name.dropFirst()] = read
        }
        return keys
    }()

    /// How to read `key` when the entity has no property of that name: one of the object's own
    /// keys, or a `@KeyValueCoded` property of its class. Nil when nothing answers it.
    func unmodelledReader(forKey key: String) -> ((NSManagedObject) -> Any?)? {
        if let own = Self.ownKeys[key] { return own }
        return KeyValueCodedLookup.accessor(forKey: key, in: type(of: self))?.read
    }
}
