/// Brings values set through key-value coding into one canonical form per attribute type, so
/// that comparisons, change detection and storage see one representation: `NSNumber` for numbers
/// and booleans, `Decimal` for decimals, Foundation value types otherwise.
enum ManagedValueNormalizer {
    static func normalize(_ value: Any?, for attribute: NSAttributeDescription) -> Any? {
        guard let value = unwrapOptional(value), !(value is NSNull) else { return nil }
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            if let number = value as? NSNumber, !(value is Double) && !(value is Float) { return NSNumber(value: number.int64Value) }
            return value
        case .booleanAttributeType:
            if let flag = value as? Bool { return NSNumber(value: flag) }
            if let number = value as? NSNumber { return NSNumber(value: number.boolValue) }
            return value
        case .doubleAttributeType:
            if let number = value as? NSNumber { return NSNumber(value: number.doubleValue) }
            return value
        case .floatAttributeType:
            if let number = value as? NSNumber { return NSNumber(value: number.floatValue) }
            return value
        case .decimalAttributeType:
            if let decimal = value as? Decimal { return decimal }
            if let number = value as? NSNumber { return number.decimalValue }
            return value
        default:
            return value
        }
    }

    /// The members of a value given for a to-many relationship, in order.
    static func objects(in value: Any?) -> [NSManagedObject] {
        // Swift collections first: casting one to NSSet would bridge (copy) it.
        switch unwrapOptional(value) {
        case let set as Set<NSManagedObject>: Array(set)
        case let array as [Any]: array.compactMap { $0 as? NSManagedObject }
        case let set as NSOrderedSet: set.array.compactMap { $0 as? NSManagedObject }
        case let set as NSSet: set.allObjects.compactMap { $0 as? NSManagedObject }
        default: []
        }
    }
}
