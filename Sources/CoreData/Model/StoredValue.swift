/// One property value as rows and objects keep it, decoded straight from the store's columns:
/// the only value type between a SQLite column and a managed object (GRDB's `DatabaseValue`
/// plays this part there).
///
/// Numbers and booleans are `integer` or `real` rather than `NSNumber`, so reading a row and
/// reading an attribute through `@Managed` allocate nothing. The Foundation form (`NSNumber`,
/// `Any`) is made only at key-value coding and public API boundaries, by the one
/// converter pair below, which needs the attribute to know what an `integer` means (an `Int16`,
/// a `Bool`). A nil value is the absence of a `StoredValue`.
@usableFromInline
enum StoredValue {
    /// Integer and boolean attributes.
    case integer(Int64)
    /// Double and float attributes.
    case real(Double)
    case text(String)
    case date(Date)
    case data(Data)
    /// Boxed, as `Decimal` (20 bytes) and `UUID` (16 bytes without a spare bit) would make
    /// every stored value larger; a URL is one reference already.
    indirect case decimal(Decimal)
    indirect case uuid(UUID)
    case url(URL)
    /// A to-one destination in a row, or an object-ID attribute.
    case objectID(NSManagedObjectID)
    /// Anything else in its Foundation form: transformable values (any class a transformer
    /// takes), composite attributes (dictionaries of their elements), and a value of the wrong
    /// type, kept as it was given so that validation can name it.
    ///
    /// Boxed (`indirect`): an inline `Any` made every stored value 33 bytes, and every copy of
    /// one in a row or an object a call to an outlined copy function; boxed, a value is the
    /// 16 bytes of a string or data and a tag.
    indirect case other(Any)

    /// The stored form of a value set through key-value coding, or nil for nil and `NSNull`.
    init?(_ value: Any?, for attribute: NSAttributeDescription) {
        guard let value = unwrapOptional(value), !(value is NSNull) else { return nil }
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            if let integer = Self.integer(value) { self = .integer(integer); return }
        case .booleanAttributeType:
            if let flag = value as? Bool { self = .integer(flag ? 1 : 0); return }
            if let number = value as? NSNumber { self = .integer(number.boolValue ? 1 : 0); return }
        case .doubleAttributeType:
            if let real = Self.real(value) { self = .real(real); return }
        case .floatAttributeType:
            if let real = Self.real(value) { self = .real(Double(Float(real))); return }
        case .decimalAttributeType:
            if let decimal = value as? Decimal { self = .decimal(decimal); return }
            if let number = value as? NSNumber { self = .decimal(number.decimalValue); return }
        case .UUIDAttributeType:
            if let uuid = value as? UUID { self = .uuid(uuid); return }
        case .URIAttributeType:
            if let url = value as? URL { self = .url(url); return }
        case .stringAttributeType:
            if let text = value as? String { self = .text(text); return }
        case .dateAttributeType:
            if let date = value as? Date { self = .date(date); return }
        case .binaryDataAttributeType:
            if let data = value as? Data { self = .data(data); return }
        case .objectIDAttributeType:
            if let objectID = value as? NSManagedObjectID { self = .objectID(objectID); return }
        case .compositeAttributeType:
            if let composite = attribute as? NSCompositeAttributeDescription, value is [String: Any] || value is NSDictionary {
                guard let elements = composite.normalized(value) else { return nil }
                self = .other(elements)
                return
            }
        default:
            break
        }
        self = .other(value)
    }

    /// The Foundation form key-value coding returns: `NSNumber` for numbers and booleans.
    func foundationValue(for attribute: NSAttributeDescription) -> Any {
        switch (self, attribute.attributeType) {
        case (.integer(let value), .booleanAttributeType): NSNumber(value: value != 0)
        case (.integer(let value), _): NSNumber(value: value)
        case (.real(let value), .floatAttributeType): NSNumber(value: Float(value))
        case (.real(let value), _): NSNumber(value: value)
        case (.text(let value), _): value
        case (.date(let value), _): value
        case (.data(let value), _): value
        case (.decimal(let value), _): value
        case (.uuid(let value), _): value
        case (.url(let value), _): value
        case (.objectID(let value), _): value
        case (.other(let value), _): value
        }
    }

    /// Swift's integer types and integral `NSNumber`s; not a `Double`, which must stay a
    /// mismatch for validation to report.
    private static func integer(_ value: Any) -> Int64? {
        switch value {
        case let integer as Int: Int64(integer)
        case let integer as Int64: integer
        case let integer as Int32: Int64(integer)
        case let integer as Int16: Int64(integer)
        case is Double, is Float: nil
        case let number as NSNumber: number.int64Value
        default: nil
        }
    }

    private static func real(_ value: Any) -> Double? {
        switch value {
        case let real as Double: real
        case let real as Float: Double(real)
        case let number as NSNumber: number.doubleValue
        default: nil
        }
    }
}

extension StoredValue {
    /// Equality of values in their Foundation form, of any attribute type: what tells a changed
    /// value from an unchanged one.
    static func equal(_ lhs: Any?, _ rhs: Any?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case let (left as NSObject, right as NSObject): return left.isEqual(right)
        case let (left as AnyHashable, right as AnyHashable): return left == right
        default: return false
        }
    }
}
