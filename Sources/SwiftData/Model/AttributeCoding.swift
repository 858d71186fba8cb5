import Foundation

/// How a value that is not one of Core Data's attribute types is stored: an enum by its raw
/// value, any other `Codable` value as JSON in a binary attribute.
struct AttributeCoding: @unchecked Sendable {
    let storedType: NSAttributeType
    let encode: (Any) -> Any?
    let decodeStored: (Any) -> Any?

    /// Core Data's attribute types, which the managed object reads and writes typed.
    static let primitiveTypes: [ObjectIdentifier: NSAttributeType] = [
        ObjectIdentifier(Int.self): .integer64AttributeType, ObjectIdentifier(Int64.self): .integer64AttributeType,
        ObjectIdentifier(Int32.self): .integer32AttributeType, ObjectIdentifier(Int16.self): .integer16AttributeType,
        ObjectIdentifier(Double.self): .doubleAttributeType, ObjectIdentifier(Float.self): .floatAttributeType,
        ObjectIdentifier(Bool.self): .booleanAttributeType, ObjectIdentifier(String.self): .stringAttributeType,
        ObjectIdentifier(Date.self): .dateAttributeType, ObjectIdentifier(Data.self): .binaryDataAttributeType,
        ObjectIdentifier(UUID.self): .UUIDAttributeType, ObjectIdentifier(URL.self): .URIAttributeType,
        ObjectIdentifier(Decimal.self): .decimalAttributeType,
    ]

    init(_ type: Any.Type) {
        if let raw = type as? any RawRepresentable.Type {
            self = Self.rawValueCoding(raw)
        } else if let codable = type as? any Codable.Type {
            self = Self.jsonCoding(codable)
        } else {
            preconditionFailure("\(type) cannot be persisted: use a Core Data attribute type, a RawRepresentable enum or a Codable type")
        }
    }

    private init(storedType: NSAttributeType, encode: @escaping (Any) -> Any?, decode: @escaping (Any) -> Any?) {
        self.storedType = storedType
        self.encode = encode
        self.decodeStored = decode
    }

    private static func rawValueCoding<T: RawRepresentable>(_ type: T.Type) -> AttributeCoding {
        let stored = primitiveTypes[ObjectIdentifier(T.RawValue.self)] ?? .stringAttributeType
        return AttributeCoding(
            storedType: stored,
            encode: { ($0 as? T).map { number(for: $0.rawValue) } },
            decode: { stored in NumericConversion.convert(stored, to: T.RawValue.self).flatMap { T(rawValue: $0) } }
        )
    }

    private static func jsonCoding<T: Codable>(_ type: T.Type) -> AttributeCoding {
        AttributeCoding(
            storedType: .binaryDataAttributeType,
            encode: { value in (value as? T).flatMap { try? JSONEncoder().encode($0) } },
            decode: { stored in (stored as? Data).flatMap { try? JSONDecoder().decode(T.self, from: $0) } }
        )
    }

    /// Numbers as `NSNumber`, which is how Core Data takes them through key-value coding.
    private static func number(for value: Any) -> Any {
        NumericConversion.number(for: value) ?? value
    }

    func encode<Value>(_ value: Value) -> Any? {
        ValueShape.unwrap(value).flatMap(encode)
    }

    func decode<Value>(_ stored: Any?, as type: Value.Type) -> Value {
        let decoded = stored.flatMap(decodeStored)
        if let optional = Value.self as? any OptionalValue.Type {
            return (decoded.map { optional.some($0) } ?? optional.none) as! Value
        }
        guard let decoded else { preconditionFailure("stored value \(String(describing: stored)) does not decode as \(Value.self)") }
        return decoded as! Value
    }
}

/// Core Data hands numbers back as `NSNumber`; Swift wants the declared integer or floating type.
enum NumericConversion {
    static func convert<T>(_ value: Any, to type: T.Type) -> T? {
        if let typed = value as? T { return typed }
        guard let number = value as? NSNumber else { return nil }
        let converted: Any? = switch type {
        case is Int.Type: number.intValue
        case is Int64.Type: number.int64Value
        case is Int32.Type: number.int32Value
        case is Int16.Type: number.int16Value
        case is Int8.Type: number.int8Value
        case is UInt.Type: number.uintValue
        case is UInt64.Type: number.uint64Value
        case is UInt32.Type: number.uint32Value
        case is UInt16.Type: number.uint16Value
        case is UInt8.Type: number.uint8Value
        case is Double.Type: number.doubleValue
        case is Float.Type: number.floatValue
        case is Bool.Type: number.boolValue
        default: nil
        }
        return converted as? T
    }

    static func number(for value: Any) -> NSNumber? {
        switch value {
        case let value as Int: NSNumber(value: value)
        case let value as Int64: NSNumber(value: value)
        case let value as Int32: NSNumber(value: value)
        case let value as Int16: NSNumber(value: value)
        case let value as Int8: NSNumber(value: value)
        case let value as UInt: NSNumber(value: value)
        case let value as UInt64: NSNumber(value: value)
        case let value as UInt32: NSNumber(value: value)
        case let value as UInt16: NSNumber(value: value)
        case let value as UInt8: NSNumber(value: value)
        case let value as Double: NSNumber(value: value)
        case let value as Float: NSNumber(value: value)
        case let value as Bool: NSNumber(value: value)
        default: nil
        }
    }
}
