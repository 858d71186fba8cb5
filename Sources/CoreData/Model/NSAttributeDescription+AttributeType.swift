/// The typed form of an attribute's type, as recent Apple releases spell it.
///
/// For example:
/// ```swift
/// let name = NSAttributeDescription()
/// name.name = "name"
/// name.type = .string
/// ```
extension NSAttributeDescription {
    /// `attributeType` under its Swift name; setting one sets the other.
    public var type: AttributeType {
        get { AttributeType(rawValue: attributeType) }
        set { attributeType = newValue.rawValue }
    }

    /// An attribute's storage type: one value for each `NSAttributeType`.
    public struct AttributeType: RawRepresentable, Hashable, Sendable {
        /// The `NSAttributeType` this value stands for.
        public let rawValue: NSAttributeType

        /// Wraps an `NSAttributeType`.
        public init(rawValue: NSAttributeType) { self.rawValue = rawValue }

        /// No type set yet.
        public static let undefined = AttributeType(rawValue: .undefinedAttributeType)
        /// A 16-bit integer.
        public static let integer16 = AttributeType(rawValue: .integer16AttributeType)
        /// A 32-bit integer.
        public static let integer32 = AttributeType(rawValue: .integer32AttributeType)
        /// A 64-bit integer.
        public static let integer64 = AttributeType(rawValue: .integer64AttributeType)
        /// A `Decimal`, stored as exact text.
        public static let decimal = AttributeType(rawValue: .decimalAttributeType)
        /// A `Double`.
        public static let double = AttributeType(rawValue: .doubleAttributeType)
        /// A `Float`.
        public static let float = AttributeType(rawValue: .floatAttributeType)
        /// A `String`.
        public static let string = AttributeType(rawValue: .stringAttributeType)
        /// A `Bool`, stored as 0 or 1.
        public static let boolean = AttributeType(rawValue: .booleanAttributeType)
        /// A `Date`, stored as seconds since 2001-01-01.
        public static let date = AttributeType(rawValue: .dateAttributeType)
        /// Bytes (`Data`).
        public static let binaryData = AttributeType(rawValue: .binaryDataAttributeType)
        /// A `UUID`, stored as 16 bytes.
        public static let uuid = AttributeType(rawValue: .UUIDAttributeType)
        /// A `URL`, stored as text.
        public static let uri = AttributeType(rawValue: .URIAttributeType)
        /// Any value, stored through its named `ValueTransformer` or keyed archiving.
        public static let transformable = AttributeType(rawValue: .transformableAttributeType)
        /// An `NSManagedObjectID`, stored as its URI.
        public static let objectID = AttributeType(rawValue: .objectIDAttributeType)
        /// Several attributes read as one dictionary (`NSCompositeAttributeDescription`).
        public static let composite = AttributeType(rawValue: .compositeAttributeType)
    }
}
