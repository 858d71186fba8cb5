/// The storage type of an attribute, with Apple's raw values so that models and stores match.
public enum NSAttributeType: UInt, Sendable, CaseIterable {
    /// No type yet.
    case undefinedAttributeType = 0
    /// A 16-bit integer, stored as SQLite INTEGER.
    case integer16AttributeType = 100
    /// A 32-bit integer, stored as SQLite INTEGER.
    case integer32AttributeType = 200
    /// A 64-bit integer, stored as SQLite INTEGER.
    case integer64AttributeType = 300
    /// A `Decimal`, stored as exact text so no digit is lost.
    case decimalAttributeType = 400
    /// A `Double`, stored as SQLite REAL.
    case doubleAttributeType = 500
    /// A `Float`, stored as SQLite REAL.
    case floatAttributeType = 600
    /// A `String`, stored as TEXT.
    case stringAttributeType = 700
    /// A `Bool`, stored as 0 or 1.
    case booleanAttributeType = 800
    /// A `Date`, stored as seconds since 2001-01-01 as Apple's store does.
    case dateAttributeType = 900
    /// `Data`, stored as a BLOB in the row.
    case binaryDataAttributeType = 1000
    /// A `UUID`, stored as a 16-byte BLOB.
    case UUIDAttributeType = 1100
    /// A `URL`, stored as text.
    case URIAttributeType = 1200
    /// Any value, stored as the `Data` its named `ValueTransformer` makes of it, or keyed-archived when none is named.
    case transformableAttributeType = 1800
    /// An `NSManagedObjectID`, stored as its URI.
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
