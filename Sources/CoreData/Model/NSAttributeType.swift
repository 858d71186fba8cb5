/// The storage type of an attribute, with Apple's raw values so that models and stores match.
public enum NSAttributeType: UInt, Sendable, CaseIterable {
    case undefinedAttributeType = 0
    case integer16AttributeType = 100
    case integer32AttributeType = 200
    case integer64AttributeType = 300
    case decimalAttributeType = 400
    case doubleAttributeType = 500
    case floatAttributeType = 600
    case stringAttributeType = 700
    case booleanAttributeType = 800
    case dateAttributeType = 900
    case binaryDataAttributeType = 1000
    case UUIDAttributeType = 1100
    case URIAttributeType = 1200
    case transformableAttributeType = 1800
    case objectIDAttributeType = 2000
    /// Several attributes stored together, read as a dictionary (`NSCompositeAttributeDescription`).
    case compositeAttributeType = 2100
}

extension NSAttributeType {
    /// Whether values of this type are integers (stored as SQLite INTEGER).
    var isInteger: Bool {
        switch self {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: true
        default: false
        }
    }

    /// Whether values of this type compare as numbers.
    var isNumeric: Bool {
        isInteger || self == .doubleAttributeType || self == .floatAttributeType
            || self == .decimalAttributeType || self == .booleanAttributeType
    }

    /// The inclusive range an integer attribute of this width can hold.
    var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16AttributeType: Int64(Int16.min)...Int64(Int16.max)
        case .integer32AttributeType: Int64(Int32.min)...Int64(Int32.max)
        case .integer64AttributeType: Int64.min...Int64.max
        default: nil
        }
    }
}
