/// What a fetch returns.
public struct NSFetchRequestResultType: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let managedObjectResultType = NSFetchRequestResultType([])
    public static let managedObjectIDResultType = NSFetchRequestResultType(rawValue: 1 << 0)
    public static let dictionaryResultType = NSFetchRequestResultType(rawValue: 1 << 1)
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
    public var entityName: String? { didSet { noteMutation("entityName") } }
    public var entity: NSEntityDescription? { didSet { noteMutation("entity") } }
    public var predicate: NSPredicate? { didSet { noteMutation("predicate") } }
    public var sortDescriptors: [NSSortDescriptor]? { didSet { noteMutation("sortDescriptors") } }
    /// 0 means no limit.
    public var fetchLimit: Int = 0 { didSet { noteMutation("fetchLimit") } }
    public var fetchOffset: Int = 0 { didSet { noteMutation("fetchOffset") } }
    /// 0 fetches every row at once; otherwise the result fills its rows in batches as it is read.
    public var fetchBatchSize: Int = 0 { didSet { noteMutation("fetchBatchSize") } }
    public var resultType: NSFetchRequestResultType = .managedObjectResultType { didSet { noteMutation("resultType") } }
    public var includesSubentities: Bool = true { didSet { noteMutation("includesSubentities") } }
    public var includesPendingChanges: Bool = true { didSet { noteMutation("includesPendingChanges") } }
    public var includesPropertyValues: Bool = true { didSet { noteMutation("includesPropertyValues") } }
    public var returnsObjectsAsFaults: Bool = true { didSet { noteMutation("returnsObjectsAsFaults") } }
    public var shouldRefreshRefetchedObjects: Bool = false { didSet { noteMutation("shouldRefreshRefetchedObjects") } }
    public var relationshipKeyPathsForPrefetching: [String]? { didSet { noteMutation("relationshipKeyPathsForPrefetching") } }
    /// Names, `NSPropertyDescription`s or `NSExpressionDescription`s, for dictionary results.
    public var propertiesToFetch: [Any]? { didSet { noteMutation("propertiesToFetch") } }
    public var propertiesToGroupBy: [Any]? { didSet { noteMutation("propertiesToGroupBy") } }
    public var havingPredicate: NSPredicate? { didSet { noteMutation("havingPredicate") } }
    public var returnsDistinctResults: Bool = false { didSet { noteMutation("returnsDistinctResults") } }
    /// Key paths through relationships (e.g. `"bucket.name"`) whose changes refresh the fetched
    /// objects that lead to them in a fetched results controller. Apple's controller lacks this.
    public var relationshipKeyPathsForRefreshing: Set<String> = [] { didSet { noteMutation("relationshipKeyPathsForRefreshing") } }

    /// Set on templates held by a model: they are immutable.
    private(set) var isFrozen = false
    /// The first property changed on a frozen request; the next fetch with it throws.
    private(set) var frozenMutation: String?

    public override init() { super.init() }

    public convenience init(entityName: String) {
        self.init()
        self.entityName = entityName
    }

    open override var requestType: NSPersistentStoreRequestType { .fetchRequestType }

    private func noteMutation(_ property: String) {
        if isFrozen, frozenMutation == nil { frozenMutation = property }
    }

    /// The entity's name, whichever way the request was given it.
    var resolvedEntityName: String? { entity?.name ?? entityName }

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
