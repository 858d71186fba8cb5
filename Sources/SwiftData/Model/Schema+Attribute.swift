/// A persisted attribute, and the options `@Attribute` takes.
extension Schema {
    public final class Attribute: Hashable, @unchecked Sendable {
        public internal(set) var name: String = ""
        public let options: [Option]
        /// The property's name in the previous schema version, for a rename.
        public let originalName: String?
        public let hashModifier: String?
        public internal(set) var valueType: Any.Type = Any.self
        public internal(set) var isOptional = false

        public init(_ options: Option..., originalName: String? = nil, hashModifier: String? = nil) {
            self.options = options
            self.originalName = originalName
            self.hashModifier = hashModifier
        }

        public var isUnique: Bool { options.contains(.unique) }

        public static func == (lhs: Attribute, rhs: Attribute) -> Bool { lhs === rhs }
        public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

        /// What `@Attribute(...)` can ask of an attribute.
        public struct Option: Hashable, Sendable {
            let kind: String

            /// One model per value: an insert with a saved value updates that model (upsert).
            public static let unique = Option(kind: "unique")
            /// Large binary values may live beside the store (Core Data's external storage).
            public static let externalStorage = Option(kind: "externalStorage")
            /// The value stays in the history's tombstone of a deleted model.
            public static let preserveValueOnDeletion = Option(kind: "preserveValueOnDeletion")
            /// Tracked for changes but never saved.
            public static let ephemeral = Option(kind: "ephemeral")
            /// Accepted for source compatibility: Linux has no Spotlight.
            public static let spotlight = Option(kind: "spotlight")
            /// Accepted for source compatibility: Linux has no CloudKit.
            public static let allowsCloudEncryption = Option(kind: "allowsCloudEncryption")
        }
    }
}
