/// What to fetch: a `#Predicate`, a sort, a window, translated into a Core Data fetch request
/// that runs in SQL.
///
/// For example:
/// ```swift
/// var descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.name.starts(with: "L") },
///                                        sortBy: [SortDescriptor(\.start)])
/// descriptor.fetchLimit = 10
/// let trips = try context.fetch(descriptor)
/// ```
/// A predicate that has no SQL form throws from the fetch (134060, naming the expression);
/// nothing is ever filtered in memory instead.
public struct FetchDescriptor<T: PersistentModel>: @unchecked Sendable {
    public var predicate: Predicate<T>?
    public var sortBy: [SortDescriptor<T>]
    public var fetchLimit: Int?
    public var fetchOffset: Int?
    /// Whether unsaved inserts and changes take part in the fetch.
    public var includePendingChanges = true
    /// Accepted; every persisted property is fetched (Core Data fills objects whole).
    public var propertiesToFetch: [PartialKeyPath<T>] = []
    /// Relationships whose destinations are fetched along with the results.
    public var relationshipKeyPathsForPrefetching: [PartialKeyPath<T>] = []

    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }

    /// The Core Data request: entity (its subentities' objects included, as a fetch of a model
    /// class returns its subclasses' models), translated predicate, sort, window and
    /// prefetching. Objects come back filled: a model is read as soon as it is fetched.
    func fetchRequest<Result>(resultType: NSFetchRequestResultType = .managedObjectResultType) throws -> NSFetchRequest<Result> {
        let request = NSFetchRequest<Result>(entityName: T.entityName)
        request.resultType = resultType
        request.returnsObjectsAsFaults = false
        if let predicate { request.predicate = try NSPredicate.parseForeign(predicate) }
        var sortDescriptors: [NSSortDescriptor] = []
        for sort in sortBy { sortDescriptors.append(try Self.sortDescriptor(sort)) }
        request.sortDescriptors = sortDescriptors
        if let fetchLimit { request.fetchLimit = fetchLimit }
        if let fetchOffset { request.fetchOffset = fetchOffset }
        request.includesPendingChanges = includePendingChanges
        var prefetched: [String] = []
        for keyPath in relationshipKeyPathsForPrefetching { if let name = Self.name(keyPath) { prefetched.append(name) } }
        if !prefetched.isEmpty { request.relationshipKeyPathsForPrefetching = prefetched }
        return request
    }

    static func name(_ keyPath: AnyKeyPath) -> String? {
        for property in T.schemaMetadata where property.keypath == keyPath { return property.name }
        return nil
    }

    private static func sortDescriptor(_ sort: SortDescriptor<T>) throws -> NSSortDescriptor {
        guard let keyPath = sort.keyPath, let name = name(keyPath) else {
            throw NSError(domain: NSCocoaErrorDomain, code: 134060, userInfo: [
                NSLocalizedDescriptionKey: "SortDescriptor \(sort) does not sort by a persisted property of \(T.self)",
            ])
        }
        return NSSortDescriptor(key: name, ascending: sort.order == .forward)
    }
}
