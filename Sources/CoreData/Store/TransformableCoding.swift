/// Turns a transformable attribute's value into bytes and back through the `ValueTransformer`
/// registered under the attribute's `valueTransformerName`, or keyed archiving when none is named.
enum TransformableCoding {
    static func encode(_ value: Any, for attribute: NSAttributeDescription) throws -> Data {
        if let name = attribute.valueTransformerName {
            guard let transformer = ValueTransformer.valueTransformer(forName: NSValueTransformerName(rawValue: name)) else {
                throw unknownTransformer(name, attribute)
            }
            if let data = transformer.storedData(from: value) { return data }
            throw failure("transformer '\(name)' did not produce Data for '\(attribute.name)'", attribute)
        }
        do {
            return try NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: false)
        } catch {
            throw failure("cannot archive the value of '\(attribute.name)': \(error)", attribute)
        }
    }

    static func decode(_ data: Data, for attribute: NSAttributeDescription) throws -> Any? {
        if let name = attribute.valueTransformerName {
            guard let transformer = ValueTransformer.valueTransformer(forName: NSValueTransformerName(rawValue: name)) else {
                throw unknownTransformer(name, attribute)
            }
            return transformer.value(fromStored: data)
        }
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        unarchiver.requiresSecureCoding = false
        return unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
    }

    private static func unknownTransformer(_ name: String, _ attribute: NSAttributeDescription) -> NSError {
        failure("no ValueTransformer is registered under '\(name)' (attribute '\(attribute.name)'); call ValueTransformer.setValueTransformer(_:forName:) first", attribute)
    }

    private static func failure(_ message: String, _ attribute: NSAttributeDescription) -> NSError {
        CoreDataError.make(NSManagedObjectValidationError, message, [NSValidationKeyErrorKey: attribute.name])
    }
}

/// Which way a transformer runs when Core Data stores a value: a plain transformer's
/// `transformedValue(_:)` produces the stored `Data`; an unarchive-from-data transformer says by
/// its name that it runs the other way, so Core Data (Apple's too) calls it in reverse.
private extension ValueTransformer {
    var unarchivesFromData: Bool { self is NSSecureUnarchiveFromDataTransformer }

    func storedData(from value: Any) -> Data? {
        (unarchivesFromData ? reverseTransformedValue(value) : transformedValue(value)) as? Data
    }

    func value(fromStored data: Data) -> Any? {
        unarchivesFromData ? transformedValue(data) : reverseTransformedValue(data)
    }
}
