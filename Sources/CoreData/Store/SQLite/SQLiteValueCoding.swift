/// Converts attribute values to and from their SQLite form (DESIGN.md §2): dates as seconds since
/// 2001, booleans 0/1, UUIDs as 16-byte blobs, URLs as text, decimals as exact text.
enum SQLiteValueCoding {
    static func encode(_ value: Any?, as attribute: NSAttributeDescription) throws -> SQLValue {
        guard let value, !(value is NSNull) else { return .null }
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType:
            guard let number = value as? NSNumber else { throw mismatch(value, attribute) }
            return .integer(number.int64Value)
        case .doubleAttributeType, .floatAttributeType:
            guard let number = value as? NSNumber else { throw mismatch(value, attribute) }
            return .real(number.doubleValue)
        case .decimalAttributeType:
            if let decimal = value as? Decimal { return .text(decimal.description) }
            if let number = value as? NSNumber { return .text(number.decimalValue.description) }
            throw mismatch(value, attribute)
        case .dateAttributeType:
            guard let date = value as? Date else { throw mismatch(value, attribute) }
            return .real(date.timeIntervalSinceReferenceDate)
        case .stringAttributeType:
            guard let string = value as? String else { throw mismatch(value, attribute) }
            return .text(string)
        case .URIAttributeType:
            guard let url = value as? URL else { throw mismatch(value, attribute) }
            return .text(url.absoluteString)
        case .UUIDAttributeType:
            guard let uuid = value as? UUID else { throw mismatch(value, attribute) }
            return .blob(withUnsafeBytes(of: uuid.uuid) { Array($0) })
        case .binaryDataAttributeType:
            guard let data = value as? Data else { throw mismatch(value, attribute) }
            return .blob(Array(data))
        case .transformableAttributeType:
            return .blob(Array(try TransformableCoding.encode(value, for: attribute)))
        case .objectIDAttributeType:
            guard let objectID = value as? NSManagedObjectID else { throw mismatch(value, attribute) }
            return .text(objectID.uriRepresentation().absoluteString)
        case .undefinedAttributeType:
            throw mismatch(value, attribute)
        }
    }

    static func decode(_ row: SQLiteRow, column: Int32, as attribute: NSAttributeDescription) throws -> Any? {
        if row.isNull(at: column) { return nil }
        let value = row.value(at: column)
        switch (attribute.attributeType, value) {
        case (.booleanAttributeType, .integer(let number)): return NSNumber(value: number != 0)
        case (.integer16AttributeType, .integer(let number)): return NSNumber(value: Int16(truncatingIfNeeded: number))
        case (.integer32AttributeType, .integer(let number)): return NSNumber(value: Int32(truncatingIfNeeded: number))
        case (.integer64AttributeType, .integer(let number)): return NSNumber(value: number)
        case (.doubleAttributeType, _): return NSNumber(value: numeric(value))
        case (.floatAttributeType, _): return NSNumber(value: Float(numeric(value)))
        case (.decimalAttributeType, _): return Decimal(string: row.text(at: column), locale: Locale(identifier: "en_US_POSIX"))
        case (.dateAttributeType, _): return Date(timeIntervalSinceReferenceDate: numeric(value))
        case (.stringAttributeType, .text(let text)): return text
        case (.URIAttributeType, .text(let text)): return URL(string: text)
        case (.UUIDAttributeType, .blob(let bytes)) where bytes.count == 16:
            return bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        case (.binaryDataAttributeType, .blob(let bytes)): return Data(bytes)
        case (.transformableAttributeType, .blob(let bytes)): return try TransformableCoding.decode(Data(bytes), for: attribute)
        case (.integer16AttributeType, _), (.integer32AttributeType, _), (.integer64AttributeType, _), (.booleanAttributeType, _):
            return NSNumber(value: Int64(numeric(value)))
        default:
            return nil
        }
    }

    private static func numeric(_ value: SQLValue) -> Double {
        switch value {
        case .integer(let number): Double(number)
        case .real(let number): number
        case .text(let text): Double(text) ?? 0
        default: 0
        }
    }

    private static func mismatch(_ value: Any, _ attribute: NSAttributeDescription) -> NSError {
        CoreDataError.make(NSManagedObjectValidationError, "Value \(value) of type \(type(of: value)) cannot be stored in attribute '\(attribute.name)' of type \(attribute.attributeType)", [
            NSValidationKeyErrorKey: attribute.name, NSValidationValueErrorKey: value,
        ])
    }
}
