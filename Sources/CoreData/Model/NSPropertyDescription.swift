/// What attributes and relationships of an entity have in common.
open class NSPropertyDescription: NSObject, @unchecked Sendable {
    // Performance: the rules below are read for every property of every object a save
    // validates and writes, and are fixed once the model is in use (`requireEditable`); they
    // skip the runtime's exclusivity check on each read (BENCHMARKS.md).

    /// The property's name, unique in its entity; a stored attribute's column is `Z` + the uppercased name.
    public var name: String = "" {
        willSet { requireEditable("name") }
        didSet { PropertyIndex.noteEdit() }
    }
    /// The entity the property belongs to; weak, as the entity holds its properties.
    public internal(set) weak var entity: NSEntityDescription!
    /// Whether nil is allowed; a mandatory property without a value fails validation (1570).
    @exclusivity(unchecked) public var isOptional: Bool = true { willSet { requireEditable("isOptional") } }
    /// Whether the value lives only in memory and is never stored.
    @exclusivity(unchecked) public var isTransient: Bool = false { willSet { requireEditable("isTransient") } }
    /// Whether the SQLite store creates an index on the property's column.
    public var isIndexed: Bool = false { willSet { requireEditable("isIndexed") } }
    /// Anything you want to keep with the property; the framework does not read it.
    public var userInfo: [AnyHashable: Any]? = nil { willSet { requireEditable("userInfo") } }
    /// Changes `versionHash` when nothing else in the property does, to force a migration.
    public var versionHashModifier: String? { willSet { requireEditable("versionHashModifier") } }
    /// The property's name in an earlier model version: a lightweight migration moves its
    /// values from that name.
    public var renamingIdentifier: String? { willSet { requireEditable("renamingIdentifier") } }
    /// A hash of what the store depends on in this property (see `VersionHash`).
    public var versionHash: Data { VersionHash.of(self) }
    /// Predicates a value must satisfy; see `setValidationPredicates(_:withValidationWarnings:)`.
    @exclusivity(unchecked) public private(set) var validationPredicates: [NSPredicate] = []
    /// One entry per predicate: an error code (`Int`) or a message (`String`) used when it fails.
    public private(set) var validationWarnings: [Any] = []

    /// A property with no name yet.
    public override init() { super.init() }

    /// Sets the validation rules. A warning that is an `NSCocoaErrorDomain` code (such as
    /// `NSValidationNumberTooLargeError`) becomes the code of the error a failing value raises.
    public func setValidationPredicates(_ predicates: [NSPredicate]?, withValidationWarnings warnings: [Any]?) {
        requireEditable("validationPredicates")
        validationPredicates = predicates ?? []
        validationWarnings = warnings ?? []
    }

    /// A copy detached from any entity, used when one description seeds another model.
    func copyProperty() -> NSPropertyDescription {
        fatalError("subclasses copy themselves")
    }

    func copyCommon(into other: NSPropertyDescription) {
        other.name = name
        other.isOptional = isOptional
        other.isTransient = isTransient
        other.isIndexed = isIndexed
        other.userInfo = userInfo
        other.versionHashModifier = versionHashModifier
        other.renamingIdentifier = renamingIdentifier
        other.validationPredicates = validationPredicates
        other.validationWarnings = validationWarnings
    }
}
