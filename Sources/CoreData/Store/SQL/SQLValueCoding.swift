/// Converts attribute values to and from their stored form (DESIGN.md §2, the same on SQLite
/// and PostgreSQL): dates as seconds since
/// 2001, booleans 0/1, UUIDs as 16-byte blobs, URLs as text, decimals as exact text.
enum SQLValueCoding {
    /// The column value of a stored value: typed values bind as they are; anything else (a
    /// wrong type given through key-value coding) goes through its Foundation form and fails
    /// with a validation error naming the attribute.
    static func encode(_ stored: StoredValue, as attribute: NSAttributeDescription) throws -> SQLValue {
        switch (stored, attribute.attributeType) {
        case (.integer(let value), .integer16AttributeType), (.integer(let value), .integer32AttributeType),
             (.integer(let value), .integer64AttributeType), (.integer(let value), .booleanAttributeType):
            return .integer(value)
        case (.real(let value), .doubleAttributeType), (.real(let value), .floatAttributeType):
            return .real(value)
        case (.text(let value), .stringAttributeType): return .text(value)
        case (.date(let value), .dateAttributeType): return .real(value.timeIntervalSinceReferenceDate)
        case (.data(let value), .binaryDataAttributeType): return .blob(Array(value))
        case (.decimal(let value), .decimalAttributeType): return .text(value.description)
        case (.uuid(let value), .UUIDAttributeType): return .blob(withUnsafeBytes(of: value.uuid) { Array($0) })
        case (.url(let value), .URIAttributeType): return .text(value.absoluteString)
        default: return try encodeFoundation(stored.foundationValue(for: attribute), as: attribute)
        }
    }

    static func encodeFoundation(_ value: Any, as attribute: NSAttributeDescription) throws -> SQLValue {
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType:
            guard let number = value as? NSNumber else { throw CoreDataError.typeMismatch(value, attribute) }
            return .integer(number.int64Value)
        case .doubleAttributeType, .floatAttributeType:
            guard let number = value as? NSNumber else { throw CoreDataError.typeMismatch(value, attribute) }
            return .real(number.doubleValue)
        case .decimalAttributeType:
            if let decimal = value as? Decimal { return .text(decimal.description) }
            if let number = value as? NSNumber { return .text(number.decimalValue.description) }
            throw CoreDataError.typeMismatch(value, attribute)
        case .dateAttributeType:
            guard let date = value as? Date else { throw CoreDataError.typeMismatch(value, attribute) }
            return .real(date.timeIntervalSinceReferenceDate)
        case .stringAttributeType:
            guard let string = value as? String else { throw CoreDataError.typeMismatch(value, attribute) }
            return .text(string)
        case .URIAttributeType:
            guard let url = value as? URL else { throw CoreDataError.typeMismatch(value, attribute) }
            return .text(url.absoluteString)
        case .UUIDAttributeType:
            guard let uuid = value as? UUID else { throw CoreDataError.typeMismatch(value, attribute) }
            return .blob(withUnsafeBytes(of: uuid.uuid) { Array($0) })
        case .binaryDataAttributeType:
            guard let data = value as? Data else { throw CoreDataError.typeMismatch(value, attribute) }
            return .blob(Array(data))
        case .transformableAttributeType:
            return .blob(Array(try TransformableCoding.encode(value, for: attribute)))
        case .objectIDAttributeType:
            guard let objectID = value as? NSManagedObjectID else { throw CoreDataError.typeMismatch(value, attribute) }
            return .text(objectID.uriRepresentation().absoluteString)
        case .undefinedAttributeType, .compositeAttributeType:
            // A composite is written element by element, never as one column.
            throw CoreDataError.typeMismatch(value, attribute)
        }
    }

    /// A stored value of `attribute` for a value in its Foundation form (a batch update's
    /// constant); nil stays NULL.
    static func encode(_ value: Any?, as attribute: NSAttributeDescription) throws -> SQLValue {
        guard let stored = StoredValue(value, for: attribute) else { return .null }
        return try encode(stored, as: attribute)
    }

    /// Reads a column straight into a stored value, without boxing: what every fetched row
    /// costs per attribute.
    static func decode(_ row: some SQLRow, column: Int32, as attribute: NSAttributeDescription) throws -> StoredValue? {
        let type = row.storageClass(at: column)
        if type == .null { return nil }
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType:
            return .integer(type == .integer ? row.int64(at: column) : Int64(numeric(row.value(at: column))))
        case .doubleAttributeType, .floatAttributeType:
            return .real(type == .text ? numeric(row.value(at: column)) : row.double(at: column))
        case .dateAttributeType:
            return .date(Date(timeIntervalSinceReferenceDate: type == .text ? numeric(row.value(at: column)) : row.double(at: column)))
        case .stringAttributeType:
            return type == .text ? .text(row.text(at: column)) : nil
        case .decimalAttributeType:
            return Decimal(string: row.text(at: column), locale: Locale(identifier: "en_US_POSIX")).map { .decimal($0) }
        case .URIAttributeType:
            return type == .text ? URL(string: row.text(at: column)).map { .url($0) } : nil
        case .UUIDAttributeType:
            guard type == .blob, case .blob(let bytes) = row.value(at: column), bytes.count == 16 else { return nil }
            return .uuid(bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
        case .binaryDataAttributeType:
            guard type == .blob, case .blob(let bytes) = row.value(at: column) else { return nil }
            return .data(Data(bytes))
        case .transformableAttributeType:
            guard type == .blob, case .blob(let bytes) = row.value(at: column) else { return nil }
            return try TransformableCoding.decode(Data(bytes), for: attribute).map { .other($0) }
        case .objectIDAttributeType, .undefinedAttributeType, .compositeAttributeType:
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
}
