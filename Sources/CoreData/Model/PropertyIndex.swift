import Synchronization

/// An entity's properties, in order and by name, built once per model edit instead of on every
/// lookup; a property's position in `properties` is its ordinal, the index of its value in rows
/// and objects (`RowValues`, `ObjectValues`), which keep a reference to the index they were laid
/// out by.
///
/// Lookups by name sit on every hot path (each key-value access, each row decoded, each insert),
/// and rebuilding these arrays and dictionaries per call dominated fetching and inserting. Models
/// may still be edited before they are used, so an index remembers the model-wide edit
/// generation it was built at and is rebuilt once any entity's properties, any inheritance link
/// or any property's name has changed since.
final class PropertyIndex: @unchecked Sendable {
    /// Bumped by every edit that can change an entity's properties or their names.
    static let editGeneration = Atomic<Int>(0)

    static func noteEdit() {
        editGeneration.add(1, ordering: .sequentiallyConsistent)
    }

    /// Hands out `serial`s.
    private static let serials = Atomic<UInt64>(0)

    let generation: Int
    /// This index's number, never reused while the process runs: what a
    /// `ManagedPropertyBinding` remembers the index it resolved against by (an address could be
    /// reused by a later index of another layout).
    let serial: UInt64
    let properties: [NSPropertyDescription]
    let byName: [String: NSPropertyDescription]
    let attributesByName: [String: NSAttributeDescription]
    let relationshipsByName: [String: NSRelationshipDescription]
    /// Each name's ordinal (the later property of a repeated name, as in `byName`).
    let ordinals: [String: Int]
    /// The ordinals of attributes alone: a typed read finds its slot without touching (and so
    /// retaining) the property description.
    let attributeOrdinals: [String: Int]
    /// The same, as a list searched in order, for an entity with few attributes (see
    /// `attributeOrdinal(forName:)`); nil for more.
    private let fewAttributes: [(name: String, ordinal: Int)]?
    /// Ordinals of to-one and of to-many relationships, for the loops that treat them apart.
    let toOneOrdinals: [Int]
    let toManyOrdinals: [Int]
    /// Ordinals of transient properties, whose values an object holds and its row does not.
    let transientOrdinals: [Int]
    /// Attribute defaults in stored form, converted once (frozen indexes only: a model still
    /// being edited may change a default without a new index).
    private let frozenDefaults: [(ordinal: Int, value: StoredValue)]

    /// Later properties win over earlier ones of the same name (an entity's own over inherited).
    init(properties: [NSPropertyDescription], generation: Int) {
        self.generation = generation
        serial = Self.serials.add(1, ordering: .relaxed).newValue
        self.properties = properties
        var byName: [String: NSPropertyDescription] = [:]
        var attributes: [String: NSAttributeDescription] = [:]
        var relationships: [String: NSRelationshipDescription] = [:]
        var ordinals: [String: Int] = [:]
        for (ordinal, property) in properties.enumerated() {
            ordinals[property.name] = ordinal
            byName[property.name] = property
            if let attribute = property as? NSAttributeDescription { attributes[property.name] = attribute }
            if let relationship = property as? NSRelationshipDescription { relationships[property.name] = relationship }
        }
        self.byName = byName
        attributesByName = attributes
        relationshipsByName = relationships
        self.ordinals = ordinals
        attributeOrdinals = ordinals.filter { properties[$0.value] is NSAttributeDescription }
        fewAttributes = attributeOrdinals.count <= Self.fewAttributesLimit
            ? attributeOrdinals.map { (name: $0.key, ordinal: $0.value) }.sorted { $0.ordinal < $1.ordinal } : nil
        toOneOrdinals = properties.indices.filter { ((properties[$0] as? NSRelationshipDescription)?.isToMany) == false }
        toManyOrdinals = properties.indices.filter { ((properties[$0] as? NSRelationshipDescription)?.isToMany) == true }
        transientOrdinals = properties.indices.filter { properties[$0].isTransient }
        frozenDefaults = generation == Self.frozenGeneration ? Self.defaults(of: properties) : []
    }

    /// The most attributes searched in order rather than hashed.
    private static let fewAttributesLimit = 8

    /// The ordinal of the attribute `name`, nil for any other name: what every `@Managed` get
    /// and set asks first. Hashing the name for `attributeOrdinals` cost about 300
    /// instructions; comparing it with a few names costs a few words' comparison each while
    /// they are short ASCII strings, as property names are.
    func attributeOrdinal(forName name: String) -> Int? {
        guard let fewAttributes else { return attributeOrdinals[name] }
        for attribute in fewAttributes where attribute.name == name { return attribute.ordinal }
        return nil
    }

    /// The property at `ordinal`, nil past the end: for callers checking that an ordinal bound
    /// against one entity holds the same property in another.
    func property(at ordinal: Int) -> NSPropertyDescription? {
        ordinal < properties.count ? properties[ordinal] : nil
    }

    /// The generation of an index built as the model froze.
    static let frozenGeneration = -1

    /// Each attribute's default in stored form, by ordinal: what a new object starts with.
    var defaultValues: [(ordinal: Int, value: StoredValue)] {
        generation == Self.frozenGeneration ? frozenDefaults : Self.defaults(of: properties)
    }

    private static func defaults(of properties: [NSPropertyDescription]) -> [(ordinal: Int, value: StoredValue)] {
        properties.indices.compactMap { ordinal in
            guard let attribute = properties[ordinal] as? NSAttributeDescription,
                  let value = StoredValue(attribute.defaultValue, for: attribute) else { return nil }
            return (ordinal, value)
        }
    }
}
