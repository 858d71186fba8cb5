/// Converts between stored values and the Swift types `@Managed` properties declare (`Int32`,
/// `Bool`, `String?`, `Date`...) without passing through `NSNumber` or a bridging cast: the
/// typed path of every `@Managed` get and set.
///
/// `T` is matched by metatype identity, and the result reinterpreted as `T` only when the
/// types are identical, so no dynamic cast runs; any other type returns nil and the caller
/// takes the key-value coding path.
enum TypedAttributeValue {
    static func make<T>(_ stored: StoredValue, as type: T.Type) -> T? {
        switch stored {
        case .integer(let value):
            if T.self == Int32.self || T.self == Int32?.self { return cast(Int32(truncatingIfNeeded: value), to: T.self) }
            if T.self == Int64.self || T.self == Int64?.self { return cast(value, to: T.self) }
            if T.self == Int16.self || T.self == Int16?.self { return cast(Int16(truncatingIfNeeded: value), to: T.self) }
            if T.self == Int.self || T.self == Int?.self { return cast(Int(truncatingIfNeeded: value), to: T.self) }
            if T.self == Bool.self || T.self == Bool?.self { return cast(value != 0, to: T.self) }
        case .real(let value):
            if T.self == Double.self || T.self == Double?.self { return cast(value, to: T.self) }
            if T.self == Float.self || T.self == Float?.self { return cast(Float(value), to: T.self) }
        case .text(let value):
            if T.self == String.self || T.self == String?.self { return cast(value, to: T.self) }
        case .date(let value):
            if T.self == Date.self || T.self == Date?.self { return cast(value, to: T.self) }
        case .data(let value):
            if T.self == Data.self || T.self == Data?.self { return cast(value, to: T.self) }
        case .objectID, .other:
            break
        }
        return nil
    }

    /// `value` as `T`, where `T` is `Value` or `Value?` (checked by the caller).
    @inline(__always)
    private static func cast<Value, T>(_ value: Value, to type: T.Type) -> T {
        if T.self == Value.self { return unsafeBitCast(value, to: T.self) }
        return unsafeBitCast(Optional(value), to: T.self)
    }

    /// The stored form of a typed value, or nil when `T` is not one of the plain types (or the
    /// value is nil): the caller then takes the key-value coding path.
    static func stored<T>(_ value: T, for attribute: NSAttributeDescription) -> StoredValue? {
        let type = attribute.attributeType
        switch value {
        case let value as Int32 where type == .integer32AttributeType || type == .integer64AttributeType || type == .integer16AttributeType:
            return .integer(Int64(value))
        case let value as Int64 where type == .integer64AttributeType || type == .integer32AttributeType || type == .integer16AttributeType:
            return .integer(value)
        case let value as Int16 where type == .integer16AttributeType || type == .integer32AttributeType || type == .integer64AttributeType:
            return .integer(Int64(value))
        case let value as Int where type == .integer64AttributeType || type == .integer32AttributeType || type == .integer16AttributeType:
            return .integer(Int64(value))
        case let value as Bool where type == .booleanAttributeType: return .integer(value ? 1 : 0)
        case let value as Double where type == .doubleAttributeType: return .real(value)
        case let value as Float where type == .floatAttributeType: return .real(Double(value))
        case let value as String where type == .stringAttributeType: return .text(value)
        case let value as Date where type == .dateAttributeType: return .date(value)
        case let value as Data where type == .binaryDataAttributeType: return .data(value)
        default: return nil
        }
    }
}
