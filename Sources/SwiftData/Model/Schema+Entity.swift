/// An entity of a schema: one model class.
extension Schema {
    public final class Entity: Hashable, @unchecked Sendable {
        public let name: String
        /// The attributes, inherited ones included (as Core Data's `attributesByName`).
        public internal(set) var attributes: Set<Schema.Attribute> = []
        /// The relationships, inherited ones included.
        public internal(set) var relationships: Set<Schema.Relationship> = []
        /// Each constraint's property names (compound when several).
        public internal(set) var uniquenessConstraints: [[String]] = []
        /// Each index's property names.
        public internal(set) var indices: [[String]] = []
        /// The entity of the model's superclass, when that class is in the schema too.
        public internal(set) weak var superentity: Schema.Entity?
        /// The entities of the model's subclasses in the schema.
        public internal(set) var subentities: Set<Schema.Entity> = []
        /// The Core Data entity this one maps to.
        public let entityDescription: NSEntityDescription

        init(name: String, entityDescription: NSEntityDescription) {
            self.name = name
            self.entityDescription = entityDescription
        }

        public var superentityName: String? { superentity?.name }

        public var attributesByName: [String: Schema.Attribute] {
            Dictionary(uniqueKeysWithValues: attributes.map { ($0.name, $0) })
        }

        public var relationshipsByName: [String: Schema.Relationship] {
            Dictionary(uniqueKeysWithValues: relationships.map { ($0.name, $0) })
        }

        /// Attributes and relationships, by name.
        public var storedPropertiesByName: [String: Any] {
            var properties: [String: Any] = attributesByName
            for (name, relationship) in relationshipsByName { properties[name] = relationship }
            return properties
        }

        public static func == (lhs: Entity, rhs: Entity) -> Bool { lhs === rhs }
        public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }
}
