/// What a fetch returns.
public struct NSFetchRequestResultType: OptionSet, Sendable {
    /// The bit pattern, as Apple's `NSFetchRequestResultType` values have it.
    public let rawValue: UInt
    /// A result type from its raw bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Managed objects (faults unless `returnsObjectsAsFaults` is false); the default.
    public static let managedObjectResultType = NSFetchRequestResultType([])
    /// `NSManagedObjectID`s only: no row values are kept.
    public static let managedObjectIDResultType = NSFetchRequestResultType(rawValue: 1 << 0)
    /// One `NSDictionary` per row with `propertiesToFetch`, computed from saved rows by the store.
    public static let dictionaryResultType = NSFetchRequestResultType(rawValue: 1 << 1)
    /// One `NSNumber`: how many objects match.
    public static let countResultType = NSFetchRequestResultType(rawValue: 1 << 2)
}

/// A search of one entity: which objects (predicate), in what order (sort descriptors), how many,
/// and in what form.
///
/// For example:
/// ```swift
/// let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
/// request.predicate = NSPredicate(format: "name BEGINSWITH %@", "A")
/// request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
/// let people = try context.fetch(request)
/// ```
///
/// The generic parameter is left unconstrained on purpose: Apple's signatures use
/// `NSFetchRequest<NSFetchRequestResult>`, and a protocol used as a generic argument does not
/// conform to itself in Swift. Results are checked against the type when produced.
open class NSFetchRequest<ResultType>: NSPersistentStoreRequest, NSCopying {
    /// The name of the entity to search; `entity` takes precedence when both are set.
    public var entityName: String? { didSet { noteMutation("entityName") } }
    /// The entity to search, when you hold its description rather than its name.
    public var entity: NSEntityDescription? { didSet { noteMutation("entity") } }
    /// Which objects match; nil matches every object of the entity.
    public var predicate: NSPredicate? { didSet { noteMutation("predicate") } }
    /// The order of the results, first key first; the store sorts in SQL where it can.
    public var sortDescriptors: [NSSortDescriptor]? { didSet { noteMutation("sortDescriptors") } }
    /// 0 means no limit.
    public var fetchLimit: Int = 0 { didSet { noteMutation("fetchLimit") } }
    /// How many matching objects to skip before the first result.
    public var fetchOffset: Int = 0 { didSet { noteMutation("fetchOffset") } }
    /// 0 fetches every row at once; otherwise the result fills its rows in batches as it is read.
    public var fetchBatchSize: Int = 0 { didSet { noteMutation("fetchBatchSize") } }
    /// Whether to return objects, object IDs, dictionaries or a count.
    public var resultType: NSFetchRequestResultType = .managedObjectResultType { didSet { noteMutation("resultType") } }
    /// Whether objects of the entity's subentities match too.
    public var includesSubentities: Bool = true { didSet { noteMutation("includesSubentities") } }
    /// Whether the context's unsaved inserts, edits and deletes count (not for dictionary results).
    public var includesPendingChanges: Bool = true { didSet { noteMutation("includesPendingChanges") } }
    /// Read from models for compatibility; fetches here read row values either way.
    public var includesPropertyValues: Bool = true { didSet { noteMutation("includesPropertyValues") } }
    /// Whether fetched objects start as faults; false fills them at once.
    public var returnsObjectsAsFaults: Bool = true { didSet { noteMutation("returnsObjectsAsFaults") } }
    /// Whether objects already registered in the context are updated with the values just read.
    public var shouldRefreshRefetchedObjects: Bool = false { didSet { noteMutation("shouldRefreshRefetchedObjects") } }
    /// Relationships whose destinations are read along with the results, so their faults need no read of their own.
    public var relationshipKeyPathsForPrefetching: [String]? { didSet { noteMutation("relationshipKeyPathsForPrefetching") } }
    /// Names, `NSPropertyDescription`s or `NSExpressionDescription`s, for dictionary results.
    public var propertiesToFetch: [Any]? { didSet { noteMutation("propertiesToFetch") } }
    /// Properties (names or descriptions) that group dictionary results, as SQL's GROUP BY.
    public var propertiesToGroupBy: [Any]? { didSet { noteMutation("propertiesToGroupBy") } }
    /// A filter on grouped dictionary results, as SQL's HAVING.
    public var havingPredicate: NSPredicate? { didSet { noteMutation("havingPredicate") } }
    /// Whether dictionary results drop duplicate rows, as SQL's DISTINCT.
    public var returnsDistinctResults: Bool = false { didSet { noteMutation("returnsDistinctResults") } }
    /// Key paths through relationships (e.g. `"bucket.name"`) whose changes refresh the fetched
    /// objects that lead to them in a fetched results controller. Apple's controller lacks this.
    public var relationshipKeyPathsForRefreshing: Set<String> = [] { didSet { noteMutation("relationshipKeyPathsForRefreshing") } }

    /// Set on templates held by a model: they are immutable.
    private(set) var isFrozen = false
    /// The first property changed on a frozen request; the next fetch with it throws.
    private(set) var frozenMutation: String?

    /// An empty request; set `entityName` or `entity` before fetching.
    public override init() { super.init() }

    /// A request for objects of the entity named `entityName`.
    public convenience init(entityName: String) {
        self.init()
        self.entityName = entityName
    }

    /// Always `.fetchRequestType`.
    open override var requestType: NSPersistentStoreRequestType { .fetchRequestType }

    private func noteMutation(_ property: String) {
        if isFrozen, frozenMutation == nil { frozenMutation = property }
    }

    /// The entity's name, whichever way the request was given it.
    var resolvedEntityName: String? { entity?.name ?? entityName }

    /// A mutable copy with every property, including a template's.
    public func copy(with zone: NSZone? = nil) -> Any { copyRequest(as: ResultType.self) }

    /// A mutable copy typed for `NSFetchRequestResult`, as templates are handed out.
    func templateCopy() -> NSFetchRequest<NSFetchRequestResult> { copyRequest(as: NSFetchRequestResult.self) }

    /// An immutable copy for storing as a model's template.
    func frozenCopy() -> NSFetchRequest<NSFetchRequestResult> {
        let copy = copyRequest(as: NSFetchRequestResult.self)
        copy.isFrozen = true
        return copy
    }

    /// The same request with another result type, e.g. `NSFetchRequest<NSNumber>` for counts.
    func copyRequest<Other>(as type: Other.Type) -> NSFetchRequest<Other> {
        let copy = NSFetchRequest<Other>()
        copy.entityName = entityName
        copy.entity = entity
        copy.predicate = predicate
        copy.sortDescriptors = sortDescriptors
        copy.fetchLimit = fetchLimit
        copy.fetchOffset = fetchOffset
        copy.fetchBatchSize = fetchBatchSize
        copy.resultType = resultType
        copy.includesSubentities = includesSubentities
        copy.includesPendingChanges = includesPendingChanges
        copy.includesPropertyValues = includesPropertyValues
        copy.returnsObjectsAsFaults = returnsObjectsAsFaults
        copy.shouldRefreshRefetchedObjects = shouldRefreshRefetchedObjects
        copy.relationshipKeyPathsForPrefetching = relationshipKeyPathsForPrefetching
        copy.propertiesToFetch = propertiesToFetch
        copy.propertiesToGroupBy = propertiesToGroupBy
        copy.havingPredicate = havingPredicate
        copy.returnsDistinctResults = returnsDistinctResults
        copy.relationshipKeyPathsForRefreshing = relationshipKeyPathsForRefreshing
        copy.affectedStores = affectedStores
        return copy
    }
}
