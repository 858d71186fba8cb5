/// The name a value transformer is registered under.
public struct NSValueTransformerName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

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

    open class func valueTransformerNames() -> [NSValueTransformerName] {
        registryLock.lock()
        defer { registryLock.unlock() }
        return Array(registry.keys)
    }

    open class func transformedValueClass() -> AnyClass { NSData.self }
    open class func allowsReverseTransformation() -> Bool { true }
    open func transformedValue(_ value: Any?) -> Any? { value }
    open func reverseTransformedValue(_ value: Any?) -> Any? { value }
}

/// Archives values securely with `NSKeyedArchiver`, accepting only `allowedTopLevelClasses`.
open class NSSecureUnarchiveFromDataTransformer: ValueTransformer {
    open class var allowedTopLevelClasses: [AnyClass] {
        [NSArray.self, NSDictionary.self, NSSet.self, NSString.self, NSNumber.self, NSDate.self, NSData.self, NSURL.self, NSUUID.self, NSNull.self]
    }

    open override func transformedValue(_ value: Any?) -> Any? {
        guard let value else { return nil }
        return try? NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: true)
    }

    open override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        return try? NSKeyedUnarchiver.unarchivedObject(ofClasses: Self.allowedTopLevelClasses, from: data)
    }
}
