/// Finds the `@KeyValueCoded` property a managed-object class (or a superclass) declares for a
/// key, by the mangled name of the marker type the macro leaves beside it.
///
/// A class's properties cannot be listed on Linux, so each (class, key) pair is looked up once,
/// when first asked for, and the answer (found or not) remembered. Only keys the entity lacks
/// and transient attributes come here: stored properties never pay for the look-up.
enum KeyValueCodedLookup {
    private struct Question: Hashable {
        let objectClass: ObjectIdentifier
        let key: String
    }

    // A lock rather than a read-mostly table: the answers grow with the keys callers ask for,
    // including mistaken ones, and are off the stored-attribute path.
    private static let answers = Locked<[Question: KeyValueCodedAccessor?]>([:])

    /// The accessor for `key` on `objectClass`, nil when no class up to `NSManagedObject` has one.
    static func accessor(forKey key: String, in objectClass: NSManagedObject.Type) -> KeyValueCodedAccessor? {
        guard objectClass != NSManagedObject.self else { return nil }
        let question = Question(objectClass: ObjectIdentifier(objectClass), key: key)
        if let answer = answers.withLock({ $0[question] }) { return answer }
        let found = search(key, from: objectClass)
        answers.withLock { $0[question] = found }
        return found
    }

    private static func search(_ key: String, from objectClass: NSManagedObject.Type) -> KeyValueCodedAccessor? {
        // Only plain ASCII identifiers mangle as their length and text.
        guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
              key.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
        else { return nil }
        let marker = "KeyValueCoding_\(key)"
        var current: AnyClass? = objectClass
        while let candidate = current, candidate != NSManagedObject.self {
            // The marker is an enum nested in the class: `<class>` `<length><name>` `O`.
            if let owner = _mangledTypeName(candidate),
               let property = _typeByName("\(owner)\(marker.utf8.count)\(marker)O") as? KeyValueCodedProperty.Type {
                return property.accessor
            }
            current = _getSuperclass(candidate)
        }
        return nil
    }
}
