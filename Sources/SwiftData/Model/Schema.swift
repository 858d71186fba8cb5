import Foundation

/// The models a container stores, mapped onto a Core Data `NSManagedObjectModel` by Core Data's
/// rules: entity `Trip` for class `Trip`, table `ZTRIP`, one column per attribute.
///
/// For example:
/// ```swift
/// let schema = Schema([Trip.self, Stop.self])
/// let unique = schema.entitiesByName["Trip"]?.uniquenessConstraints // [["name"]]
/// ```
public final class Schema: @unchecked Sendable {
    public let entities: [Schema.Entity]
    public let version: Schema.Version
    /// The Core Data model the schema maps to; built once, shared by containers on the schema.
    public let managedObjectModel: NSManagedObjectModel
    /// The model class of each entity, to wrap fetched objects.
    let modelTypes: [String: any PersistentModel.Type]
    /// What each model needs per object, found by identity rather than by name: the model class
    /// of an entity, the entity of a model class, an entity's property bindings by name.
    private let lookups: Lookups

    public var entitiesByName: [String: Schema.Entity] {
        Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0) })
    }

    public init(_ types: [any PersistentModel.Type], version: Schema.Version = Version(1, 0, 0)) {
        let built = SchemaBuilder(types: types).build()
        entities = built.entities
        managedObjectModel = built.model
        modelTypes = built.types
        lookups = Lookups(built)
        self.version = version
    }

    /// The model class whose objects `entity` describes.
    func modelType(of entity: NSEntityDescription) -> (any PersistentModel.Type)? {
        lookups.modelTypes[ObjectIdentifier(entity)]
    }

    /// The entity of model class `type`.
    func entity(of type: any PersistentModel.Type) -> NSEntityDescription? {
        lookups.entities[ObjectIdentifier(type)]
    }

    /// The persisted properties of `entity`'s model class, inherited ones included, by name.
    func bindings(of entity: NSEntityDescription) -> [String: ModelPropertyBinding]? {
        lookups.bindings[ObjectIdentifier(entity)]
    }

    private struct Lookups {
        var modelTypes: [ObjectIdentifier: any PersistentModel.Type] = [:]
        var entities: [ObjectIdentifier: NSEntityDescription] = [:]
        var bindings: [ObjectIdentifier: [String: ModelPropertyBinding]] = [:]

        init(_ built: SchemaBuilder.Built) {
            for entity in built.entities {
                guard let type = built.types[entity.name] else { continue }
                let description = entity.entityDescription
                modelTypes[ObjectIdentifier(description)] = type
                entities[ObjectIdentifier(type)] = description
                bindings[ObjectIdentifier(description)] = Dictionary(
                    type.schemaMetadata.compactMap { metadata in metadata.binding.map { (metadata.name, $0) } },
                    uniquingKeysWith: { first, _ in first }
                )
            }
        }
    }

    public convenience init(_ types: any PersistentModel.Type..., version: Schema.Version = Version(1, 0, 0)) {
        self.init(types, version: version)
    }

    /// The schema of one version of a versioned schema.
    public convenience init(versionedSchema: any VersionedSchema.Type) {
        self.init(versionedSchema.models, version: versionedSchema.versionIdentifier)
    }

    /// A schema version, `major.minor.patch`.
    public struct Version: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
        public let major: Int
        public let minor: Int
        public let patch: Int

        public init(_ major: Int, _ minor: Int, _ patch: Int) {
            self.major = major
            self.minor = minor
            self.patch = patch
        }

        public var description: String { "\(major).\(minor).\(patch)" }

        public static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }
    }

    /// One persisted property as `@Model` lists it: name, key path and its options.
    public struct PropertyMetadata: @unchecked Sendable {
        public let name: String
        public let keypath: AnyKeyPath
        public let defaultValue: Any?
        /// A `Schema.Attribute` or `Schema.Relationship` from the property's macro, or nil.
        public let metadata: Any?
        /// The binding `@Model` made for the property, through which its accessors go.
        let binding: ModelPropertyBinding?

        public init(name: String, keypath: AnyKeyPath, defaultValue: Any? = nil, metadata: Any? = nil) {
            self.init(name: name, keypath: keypath, defaultValue: defaultValue, metadata: metadata, binding: nil)
        }

        /// What `@Model` writes: the property with its binding.
        public init(name: String, keypath: AnyKeyPath, defaultValue: Any?, metadata: Any?, binding: ModelPropertyBinding?) {
            self.name = name
            self.keypath = keypath
            self.defaultValue = defaultValue
            self.metadata = metadata
            self.binding = binding
        }
    }
}
