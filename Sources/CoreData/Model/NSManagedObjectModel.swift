import Synchronization

/// The schema of an object graph: entities, their properties and relationships, and stored
/// fetch request templates. Built in code or read from an Xcode `.xcdatamodel(d)`.
open class NSManagedObjectModel: NSObject, @unchecked Sendable {
    private var entityList: [NSEntityDescription] = []
    private var templates: [String: NSFetchRequest<NSFetchRequestResult>] = [:]
    /// The entity names of each named configuration (see `NSManagedObjectModel+Configurations.swift`).
    var configurationMembers: [String: [String]] = [:] { willSet { requireEditable("configurations") } }
    /// Labels for this model version, recorded in a SQLite store's metadata.
    public var versionIdentifiers: Set<AnyHashable> = [] { willSet { requireEditable("versionIdentifiers") } }
    /// The versioned bundle (`.xcdatamodeld` or `.momd`) this model was loaded from, whose
    /// other versions a migration searches for the model a store was written with.
    var versionBundleURL: URL?
    /// Set once a coordinator uses the model (see `NSManagedObjectModel+Freezing.swift`).
    let frozen = Atomic<Bool>(false)

    /// An empty model; set `entities`.
    public override init() { super.init() }

    /// A model holding `entities`, with relationships resolved by name.
    public convenience init(entities: [NSEntityDescription]) {
        self.init()
        self.entities = entities
    }

    /// The entities; setting them resolves relationships' destinations and inverses by name.
    public var entities: [NSEntityDescription] {
        get { entityList }
        set {
            requireEditable("entities")
            entityList = newValue
            resolve()
        }
    }

    /// Two models are equal when they describe the same schema (see
    /// `NSManagedObjectModel+Equality.swift`), so two loads of one model file compare equal, as
    /// on Apple platforms. Overridden here: `NSObject.isEqual` cannot be from an extension.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSManagedObjectModel else { return false }
        return other === self || isStructurallyEqual(to: other)
    }

    /// From the entity names only, so equal models hash alike whatever else they hold; like
    /// Apple's, it changes if the entities are edited while the model sits in a set.
    open override var hash: Int {
        var hasher = Hasher()
        for name in entitiesByName.keys.sorted() { hasher.combine(name) }
        return hasher.finalize()
    }

    /// The entities by name.
    public var entitiesByName: [String: NSEntityDescription] {
        Dictionary(entityList.compactMap { entity in entity.name.map { ($0, entity) } }, uniquingKeysWith: { first, _ in first })
    }

    /// Each entity's `versionHash`, as stored in a SQLite store's metadata.
    public var entityVersionHashesByName: [String: Data] {
        entitiesByName.mapValues(\.versionHash)
    }

    /// A checksum of every entity's version hash, Apple's (`NSStoreModelVersionChecksumKey`):
    /// what a staged migration names model versions by (`NSManagedObjectModelReference`,
    /// `NSLightweightMigrationStage`).
    public var versionChecksum: String { VersionHash.checksum(entityVersionHashesByName) }

    /// Whether a store whose metadata is `metadata` was written with this model: Apple's rule,
    /// a hash recipe version of at most 3 and every entity's recorded hash equal to the
    /// model's, byte for byte. A store written by this project's releases before it used
    /// Apple's hashes, which records the old ones (`LegacyVersionHash`), is compatible too.
    public func isConfiguration(withName configuration: String?, compatibleWithStoreMetadata metadata: [String: Any]) -> Bool {
        guard let stored = metadata[NSStoreModelVersionHashesKey] as? [String: Data] else { return false }
        if let version = metadata[VersionHash.hashesVersionKey] as? Int, version > VersionHash.hashesVersion { return false }
        return stored == entityVersionHashesByName || stored == LegacyVersionHash.entityHashes(of: self)
    }

    // MARK: Fetch request templates

    /// Stores a template; the model keeps its own copy so later edits to `fetchRequest` don't leak in.
    public func setFetchRequestTemplate(_ fetchRequest: NSFetchRequest<NSFetchRequestResult>?, forName name: String) {
        requireEditable("the fetch request template '\(name)'")
        templates[name] = fetchRequest.map { $0.frozenCopy() }
    }

    /// The stored template. It is immutable: setting a property on it throws at the next fetch,
    /// where Apple raises, so copy it (or use `fetchRequestFromTemplate`) to change it.
    public func fetchRequestTemplate(forName name: String) -> NSFetchRequest<NSFetchRequestResult>? {
        templates[name]
    }

    /// Every stored template by name (each immutable).
    public var fetchRequestTemplatesByName: [String: NSFetchRequest<NSFetchRequestResult>] { templates }

    /// A mutable copy of a template with `$VARIABLE`s in its predicate replaced.
    public func fetchRequestFromTemplate(withName name: String, substitutionVariables variables: [String: Any]) -> NSFetchRequest<NSFetchRequestResult>? {
        guard let template = templates[name] else { return nil }
        let request = template.templateCopy()
        request.predicate = template.predicate?.withSubstitutionVariables(variables)
        return request
    }

    // MARK: Merging

    /// One model holding the entities of every model found in `bundles` (or the main bundle).
    public class func mergedModel(from bundles: [Bundle]?) -> NSManagedObjectModel? {
        let searched = bundles ?? [Bundle.main]
        let models = searched.flatMap { bundle in
            ModelBundleLocator.modelURLs(in: bundle.bundleURL).compactMap { NSManagedObjectModel(contentsOf: $0) }
        }
        return models.isEmpty ? nil : NSManagedObjectModel(byMerging: models)
    }

    /// A model combining the entities and templates of `models`; nil if two define the same entity.
    public convenience init?(byMerging models: [NSManagedObjectModel]?) {
        self.init()
        var seen = Set<String>()
        var copies: [NSEntityDescription] = []
        var copiesByName: [String: NSEntityDescription] = [:]
        for model in models ?? [] {
            for entity in model.entities {
                guard let name = entity.name, seen.insert(name).inserted else { return nil }
                let copy = entity.copyEntity()
                copies.append(copy)
                copiesByName[name] = copy
            }
            for (name, template) in model.templates { templates[name] = template }
        }
        for model in models ?? [] {
            for entity in model.entities where !entity.subentities.isEmpty {
                copiesByName[entity.name!]?.subentities = entity.subentities.compactMap { copiesByName[$0.name ?? ""] }
            }
        }
        entities = copies
    }

    // MARK: Resolution

    /// Links entities back to the model, relationships to their destinations and inverses, and
    /// numbers the entities alphabetically (1-based) for the Z_ENT column, as Apple's store does.
    private func resolve() {
        let byName = entitiesByName
        for (number, entity) in entityList.sorted(by: { ($0.name ?? "") < ($1.name ?? "") }).enumerated() {
            entity.entityNumber = number + 1
        }
        for entity in entityList {
            entity.managedObjectModel = self
            for case let relationship as NSRelationshipDescription in entity.properties where relationship.entity === entity {
                if let destination = relationship.destinationEntityName, relationship.destinationEntity == nil {
                    relationship.destinationEntity = byName[destination]
                }
            }
        }
        for entity in entityList {
            for case let relationship as NSRelationshipDescription in entity.properties where relationship.entity === entity {
                if relationship.inverseRelationship == nil, let inverseName = relationship.inverseName {
                    relationship.inverseRelationship = relationship.destinationEntity?.relationshipsByName[inverseName]
                }
                if let inverse = relationship.inverseRelationship, inverse.inverseRelationship == nil {
                    inverse.inverseRelationship = relationship
                }
            }
        }
    }
}
