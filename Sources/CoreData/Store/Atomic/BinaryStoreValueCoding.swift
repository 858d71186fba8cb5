/// Converts attribute values to and from the property-list values of the binary store's file:
/// numbers and booleans as numbers, dates as seconds since 2001 (as the SQLite store keeps
/// them), decimals as exact text, UUIDs and URLs as text, transformable values as their
/// transformer's bytes, composites as dictionaries of their elements.
enum BinaryStoreValueCoding {
    /// The file's form of a value; nil for no value.
    static func encode(_ value: Any?, as attribute: NSAttributeDescription) throws -> Any? {
        guard let stored = StoredValue(value, for: attribute) else { return nil }
        let value = stored.foundationValue(for: attribute)
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType,
             .doubleAttributeType, .floatAttributeType:
            if let number = value as? NSNumber { return number }
        case .decimalAttributeType:
            if let decimal = value as? Decimal { return decimal.description }
        case .dateAttributeType:
            if let date = value as? Date { return NSNumber(value: date.timeIntervalSinceReferenceDate) }
        case .stringAttributeType:
            if let string = value as? String { return string }
        case .URIAttributeType:
            if let url = value as? URL { return url.absoluteString }
        case .UUIDAttributeType:
            if let uuid = value as? UUID { return uuid.uuidString }
        case .binaryDataAttributeType:
            if let data = value as? Data { return data }
        case .transformableAttributeType:
            return try TransformableCoding.encode(value, for: attribute)
        case .compositeAttributeType:
            if let composite = attribute as? NSCompositeAttributeDescription, let elements = value as? [String: Any] {
                var encoded: [String: Any] = [:]
                for element in composite.elements { encoded[element.name] = try encode(elements[element.name], as: element) }
                return encoded
            }
        case .objectIDAttributeType, .undefinedAttributeType:
            // Not kept, as the SQLite store reads none back.
            return nil
        }
        throw CoreDataError.typeMismatch(value, attribute)
    }

    /// The value `encode` wrote; nil for a value of another form (a file edited by hand).
    static func decode(_ value: Any, as attribute: NSAttributeDescription) throws -> Any? {
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType,
             .doubleAttributeType, .floatAttributeType:
            return value as? NSNumber
        case .decimalAttributeType:
            return (value as? String).flatMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) }
        case .dateAttributeType:
            return (value as? NSNumber).map { Date(timeIntervalSinceReferenceDate: $0.doubleValue) }
        case .stringAttributeType:
            return value as? String
        case .URIAttributeType:
            return (value as? String).flatMap(URL.init(string:))
        case .UUIDAttributeType:
            return (value as? String).flatMap(UUID.init(uuidString:))
        case .binaryDataAttributeType:
            return value as? Data
        case .transformableAttributeType:
            return try (value as? Data).flatMap { try TransformableCoding.decode($0, for: attribute) }
        case .compositeAttributeType:
            guard let composite = attribute as? NSCompositeAttributeDescription, let elements = value as? [String: Any] else { return nil }
            var decoded: [String: Any] = [:]
            for element in composite.elements {
                if let elementValue = elements[element.name] { decoded[element.name] = try decode(elementValue, as: element) }
            }
            return decoded
        case .objectIDAttributeType, .undefinedAttributeType:
            return nil
        }
    }
}
