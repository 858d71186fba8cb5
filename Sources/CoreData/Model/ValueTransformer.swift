/// The name a value transformer is registered under.
public struct NSValueTransformerName: RawRepresentable, Hashable, Sendable {
    /// The registered name.
    public let rawValue: String
    /// A name from its string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A name from its string, unlabelled.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The built-in transformer that archives values with secure keyed coding; Xcode models often name it.
    public static let secureUnarchiveFromDataTransformerName = NSValueTransformerName("NSSecureUnarchiveFromData")
}

/// Converts a transformable attribute's value to `Data` and back. Foundation on Linux has no
/// `ValueTransformer`, so Core Data brings one with Apple's API.
///
/// For example:
/// ```swift
/// ValueTransformer.setValueTransformer(ColorTransformer(), forName: NSValueTransformerName("ColorTransformer"))
/// ```
open class ValueTransformer: NSObject {
    private nonisolated(unsafe) static var registry: [NSValueTransformerName: ValueTransformer] = [
        .secureUnarchiveFromDataTransformerName: NSSecureUnarchiveFromDataTransformer(),
    ]
    private static let registryLock = NSLock()

    /// A transformer that passes values through unchanged; subclasses convert.
    public override init() { super.init() }

    /// Registers (or, with nil, removes) the transformer used for attributes naming `name`.
    open class func setValueTransformer(_ transformer: ValueTransformer?, forName name: NSValueTransformerName) {
        registryLock.lock()
        defer { registryLock.unlock() }
        registry[name] = transformer
    }

    /// The transformer registered under `name`. (Apple spells this `ValueTransformer(forName:)`,
    /// a factory Swift classes cannot declare.)
    open class func valueTransformer(forName name: NSValueTransformerName) -> ValueTransformer? {
        registryLock.lock()
        defer { registryLock.unlock() }
        return registry[name]
    }

    /// The names of every registered transformer.
    open class func valueTransformerNames() -> [NSValueTransformerName] {
        registryLock.lock()
        defer { registryLock.unlock() }
        return Array(registry.keys)
    }

    /// The class of transformed values; `NSData` unless overridden.
    open class func transformedValueClass() -> AnyClass { NSData.self }
    /// Whether `reverseTransformedValue(_:)` works; true unless overridden.
    open class func allowsReverseTransformation() -> Bool { true }
    /// Converts a value to what is stored; the base returns it unchanged.
    open func transformedValue(_ value: Any?) -> Any? { value }
    /// Converts a stored value back; the base returns it unchanged.
    open func reverseTransformedValue(_ value: Any?) -> Any? { value }
}

/// Unarchives `Data` securely with `NSKeyedUnarchiver`, accepting only `allowedTopLevelClasses`;
/// archives in reverse. Its name says the direction: `transformedValue(_:)` turns archived data
/// into an object, so Core Data stores a value through `reverseTransformedValue(_:)` and reads it
/// back through `transformedValue(_:)`, the opposite of a plain transformer.
///
/// For example:
/// ```swift
/// final class ColourTransformer: NSSecureUnarchiveFromDataTransformer {
///     override class var allowedTopLevelClasses: [AnyClass] { [Colour.self] }
/// }
/// ```
open class NSSecureUnarchiveFromDataTransformer: ValueTransformer {
    /// The classes a decoded archive may contain at its top level; override to add your own.
    open class var allowedTopLevelClasses: [AnyClass] {
        [NSArray.self, NSDictionary.self, NSSet.self, NSString.self, NSNumber.self, NSDate.self, NSData.self, NSURL.self, NSUUID.self, NSNull.self]
    }

    /// The class of unarchived values: any object.
    open override class func transformedValueClass() -> AnyClass { NSObject.self }

    /// Unarchives data whose top-level class is allowed; nil otherwise.
    open override func transformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        return try? NSKeyedUnarchiver.unarchivedObject(ofClasses: Self.allowedTopLevelClasses, from: data)
    }

    /// Archives `value` securely; nil if it cannot be archived.
    open override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let value else { return nil }
        return try? NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: true)
    }
}
