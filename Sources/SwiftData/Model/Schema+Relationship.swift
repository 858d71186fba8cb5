/// A relationship between models, and the options `@Relationship` takes.
extension Schema {
    public final class Relationship: Hashable, @unchecked Sendable {
        public internal(set) var name: String = ""
        public let options: [Option]
        public let deleteRule: DeleteRule
        public let minimumModelCount: Int?
        public let maximumModelCount: Int?
        public let originalName: String?
        public let hashModifier: String?
        /// The key path of the inverse as written in `@Relationship(inverse:)`.
        public let inverseKeyPath: AnyKeyPath?
        /// The destination entity's name.
        public internal(set) var destination: String = ""
        public internal(set) var inverseName: String?
        public internal(set) var isToOneRelationship = true
        public internal(set) var isOptional = true

        public init(
            _ options: Option..., deleteRule: DeleteRule = .nullify, minimumModelCount: Int? = 0,
            maximumModelCount: Int? = 0, originalName: String? = nil, inverse: AnyKeyPath? = nil,
            hashModifier: String? = nil
        ) {
            self.options = options
            self.deleteRule = deleteRule
            self.minimumModelCount = minimumModelCount
            self.maximumModelCount = maximumModelCount
            self.originalName = originalName
            self.inverseKeyPath = inverse
            self.hashModifier = hashModifier
        }

        public var isUnique: Bool { options.contains(.unique) }

        public static func == (lhs: Relationship, rhs: Relationship) -> Bool { lhs === rhs }
        public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

        public struct Option: Hashable, Sendable {
            let kind: String
            public static let unique = Option(kind: "unique")
        }

        /// What deleting the source model does to the related ones.
        public enum DeleteRule: String, Hashable, Codable, Sendable {
            case nullify, cascade, deny, noAction

            var coreData: NSDeleteRule {
                switch self {
                case .nullify: .nullifyDeleteRule
                case .cascade: .cascadeDeleteRule
                case .deny: .denyDeleteRule
                case .noAction: .noActionDeleteRule
                }
            }
        }
    }
}
