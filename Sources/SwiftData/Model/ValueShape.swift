import Foundation
import Synchronization

/// How a property's Swift type is stored: as an attribute the managed object reads and writes
/// typed, as an attribute converted on the way (raw-value enums, `Codable` values), or as a
/// to-one or to-many relationship. Worked out once per type.
// Unchecked: it holds only metatypes and constant closures.
enum ValueShape: @unchecked Sendable {
    case direct
    case converted(AttributeCoding)
    case toOne(any PersistentModel.Type, optional: Bool)
    case toMany(any PersistentModel.Type, optional: Bool)

    private static let shapes = Mutex<[ObjectIdentifier: ValueShape]>([:])

    static func of(_ type: Any.Type) -> ValueShape {
        let key = ObjectIdentifier(type)
        if let known = shapes.withLock({ $0[key] }) { return known }
        let shape = make(type)
        shapes.withLock { $0[key] = shape }
        return shape
    }

    private static func make(_ type: Any.Type) -> ValueShape {
        let optional = type is any OptionalValue.Type
        let wrapped = (type as? any OptionalValue.Type)?.wrappedType ?? type
        if let model = wrapped as? any PersistentModel.Type { return .toOne(model, optional: optional) }
        if let array = wrapped as? any ModelArray.Type, let model = array.modelType { return .toMany(model, optional: optional) }
        if AttributeCoding.primitiveTypes[ObjectIdentifier(wrapped)] != nil { return .direct }
        return .converted(AttributeCoding(wrapped))
    }

    /// The attribute type a property of this Swift type stores as, and whether it may be nil.
    static func attributeType(of type: Any.Type) -> (NSAttributeType, optional: Bool) {
        let optional = type is any OptionalValue.Type
        let wrapped = (type as? any OptionalValue.Type)?.wrappedType ?? type
        if let primitive = AttributeCoding.primitiveTypes[ObjectIdentifier(wrapped)] { return (primitive, optional) }
        return (AttributeCoding(wrapped).storedType, optional)
    }

    /// The value of a property never assigned on an unattached model: nil or empty.
    func emptyValue<Value>(as type: Value.Type) -> Value {
        switch self {
        case .toMany(_, let optional) where !optional: return ValueShape.makeArray([], as: Value.self, optional: false)
        default:
            guard let optional = Value.self as? any OptionalValue.Type else {
                preconditionFailure("a persisted property of type \(Value.self) was read before it was assigned")
            }
            return optional.none as! Value
        }
    }

    static func unwrap(_ value: Any) -> Any? {
        if let optional = value as? any OptionalValue { return optional.wrappedValue }
        return value
    }

    static func wrapOptional<Value>(_ value: Any?, as type: Value.Type) -> Value {
        guard let value else { return (Value.self as! any OptionalValue.Type).none as! Value }
        return (Value.self as! any OptionalValue.Type).some(value) as! Value
    }

    /// The models in a value: one for a model, the members of an array of models.
    static func models(in value: Any) -> [any PersistentModel] {
        switch unwrap(value) {
        case let model as any PersistentModel: [model]
        case let array as any ModelArray: array.models
        default: []
        }
    }

    static func makeArray<Value>(_ models: [any PersistentModel], as type: Value.Type, optional: Bool) -> Value {
        let arrayType = ((Value.self as? any OptionalValue.Type)?.wrappedType ?? Value.self) as! any ModelArray.Type
        let array = arrayType.init(models: models)
        return optional ? wrapOptional(array, as: Value.self) : array as! Value
    }
}

/// `Optional`, seen through a metatype.
protocol OptionalValue {
    static var wrappedType: Any.Type { get }
    static var none: Any { get }
    static func some(_ value: Any) -> Any
    var wrappedValue: Any? { get }
}

extension Optional: OptionalValue {
    static var wrappedType: Any.Type { Wrapped.self }
    static var none: Any {
        let absent: Wrapped? = nil
        return absent as Any
    }
    static func some(_ value: Any) -> Any { Optional(value as! Wrapped) as Any }
    var wrappedValue: Any? { self.map { $0 as Any } }
}

/// An array of models, seen through a metatype.
protocol ModelArray {
    static var modelType: (any PersistentModel.Type)? { get }
    init(models: [any PersistentModel])
    var models: [any PersistentModel] { get }
}

extension Array: ModelArray {
    static var modelType: (any PersistentModel.Type)? { Element.self as? any PersistentModel.Type }
    init(models: [any PersistentModel]) { self = models.map { $0 as! Element } }
    var models: [any PersistentModel] { compactMap { $0 as? any PersistentModel } }
}
