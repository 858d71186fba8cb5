// Turning arbitrary Swift and Foundation values (format arguments, attribute values read from
// objects and dictionaries) into `ConstantValue`s, so every later comparison deals with one
// closed set of kinds.

extension ConstantValue {
    /// Normalises `value`; collections are not constants (see `collectionElements(of:)`).
    init(any value: Any?) {
        // Strings first, before looking through optionals (a cast sees through them too): they
        // are the common sort and section keys, and each check below costs a runtime search.
        if let string = value as? String {
            self = .string(string)
            return
        }
        guard let value = unwrapOptional(value) else { self = .null; return }
        // Real NSNumber objects first: on Linux `NSNumber(value: 1) as? Bool` succeeds, so the
        // Swift-type cases below would misread them.
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            self = number is NSDecimalNumber ? .decimal(number.decimalValue) : ConstantValue(number: number)
            return
        }
        switch value {
        case let value as Date: self = .date(value)
        case is NSNull: self = .null
        case let value as ConstantValue: self = value
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .int(Int64(value))
        case let value as Int64: self = .int(value)
        case let value as Int32: self = .int(Int64(value))
        case let value as Int16: self = .int(Int64(value))
        case let value as Int8: self = .int(Int64(value))
        case let value as UInt8: self = .int(Int64(value))
        case let value as UInt16: self = .int(Int64(value))
        case let value as UInt32: self = .int(Int64(value))
        case let value as UInt: self = value <= UInt(Int64.max) ? .int(Int64(value)) : .double(Double(value))
        case let value as UInt64: self = value <= UInt64(Int64.max) ? .int(Int64(value)) : .double(Double(value))
        case let value as Double: self = .double(value)
        case let value as Float: self = .double(Double(value))
        case let value as Decimal: self = .decimal(value)
        case let value as Substring: self = .string(String(value))
        case let value as Character: self = .string(String(value))
        case let value as Data: self = .data(value)
        case let value as UUID: self = .uuid(value)
        case let value as URL: self = .url(value)
        case let value as NSString: self = .string(value as String)
        case let value as NSDate: self = .date(value as Date)
        case let value as NSData: self = .data(value as Data)
        case let value as NSUUID: self = .uuid(value as UUID)
        case let value as NSURL: self = value.absoluteURL.map { .url($0) } ?? .null
        default: self = .object(OpaqueValue(value))
        }
    }

    /// An `NSNumber` keeps the kind it was made from: floating point, boolean or integer.
    init(number: NSNumber) {
        let type = String(cString: number.objCType)
        switch type {
        case "d", "f": self = .double(number.doubleValue)
        case "c", "B":
            let value = number.int64Value
            self = value == 0 || value == 1 ? .bool(value == 1) : .int(value)
        case "Q", "L", "I":
            let value = number.uint64Value
            self = value <= UInt64(Int64.max) ? .int(Int64(value)) : .double(Double(value))
        default: self = .int(number.int64Value)
        }
    }

    /// The value as Foundation hands it to callers (`NSExpression.constantValue`, evaluation).
    var anyValue: Any? {
        switch self {
        case .null: nil
        case .bool(let value): NSNumber(value: value)
        case .int(let value): NSNumber(value: value)
        case .double(let value): NSNumber(value: value)
        case .decimal(let value): value
        case .string(let value): value
        case .date(let value): value
        case .data(let value): value
        case .uuid(let value): value
        case .url(let value): value
        case .object(let value): value.value
        }
    }
}

/// The members of an array, set or ordered set; nil if `value` is not a collection.
/// Strings and data are values, not collections.
func collectionElements(of value: Any?) -> [Any?]? {
    guard let value = unwrapOptional(value) else { return nil }
    switch value {
    case is String, is NSString, is Data, is NSData, is [String: Any], is NSDictionary: return nil
    case let array as [Any?]: return array
    case let array as NSArray: return array.map { $0 }
    case let set as NSSet: return set.allObjects.map { $0 }
    case let set as NSOrderedSet: return set.array.map { $0 }
    case let set as Set<AnyHashable>: return set.map { $0.base }
    default:
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .set || mirror.displayStyle == .collection {
            return mirror.children.map { $0.value }
        }
        return nil
    }
}
