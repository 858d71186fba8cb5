/// A fetch's results as a collection that makes its objects a batch at a time, when an index of
/// the batch is first read. Only the matching keys are read up front (eight bytes a row), so the
/// memory it holds follows what is touched, not the size of the result.
///
/// Apple's `fetch(_:)` with a `fetchBatchSize` returns an `NSArray` that behaves this way. A Swift
/// array on Linux cannot defer making its elements, so here `fetch(_:)` returns one fault a row
/// and `NSManagedObjectContext.fetchBatched(_:)` returns this collection. Read it on its
/// context's queue, as you would the objects it holds.
public struct BatchedFetchResults<Element>: RandomAccessCollection {
    /// How many objects are made (and their rows read, in one query) together.
    public let batchSize: Int
    private let source: Source

    /// Results already made in full: counts, dictionaries and object IDs are not batched.
    init(elements: [Element]) {
        batchSize = Swift.max(elements.count, 1)
        source = Source(.made(elements))
    }

    init(context: NSManagedObjectContext, ids: ObjectIDList, batchSize: Int, prefetching: [String], firesFaults: Bool) {
        self.batchSize = batchSize
        source = Source(.pending(context: context, ids: ids, prefetching: prefetching, firesFaults: firesFaults))
    }

    /// Always 0.
    public var startIndex: Int { 0 }
    /// The number of results, known from the keys read up front.
    public var endIndex: Int { source.count }

    /// The result at `position`, making its whole batch first if no index of it was read before.
    public subscript(position: Int) -> Element {
        precondition(indices.contains(position), "BatchedFetchResults: index \(position) out of range 0..<\(count)")
        let batch = position / batchSize
        return source.batch(batch, size: batchSize)[position - batch * batchSize]
    }

    /// How many batches have been made so far.
    public var madeBatchCount: Int { source.madeBatchCount }

    /// Shared by copies of the collection, so a batch is made once however it is reached.
    private final class Source {
        enum Content {
            case made([Element])
            case pending(context: NSManagedObjectContext, ids: ObjectIDList, prefetching: [String], firesFaults: Bool)
        }

        let content: Content
        private var batches: [Int: [Element]] = [:]

        init(_ content: Content) {
            self.content = content
        }

        var count: Int {
            switch content {
            case .made(let elements): elements.count
            case .pending(_, let ids, _, _): ids.count
            }
        }

        var madeBatchCount: Int {
            if case .made = content { return 1 }
            return batches.count
        }

        func batch(_ index: Int, size: Int) -> ArraySlice<Element> {
            switch content {
            case .made(let elements):
                return elements[...]
            case .pending(let context, let ids, let prefetching, let firesFaults):
                if let made = batches[index] { return made[...] }
                let members = ids[index * size..<Swift.min((index + 1) * size, ids.count)]
                let objects = context.performAndWait {
                    let objects = context.batchFaults(for: members)
                    // Prefetching only saves queries later; a failure leaves the faults to read their own rows.
                    try? context.prefetch(prefetching, for: objects)
                    if firesFaults { objects.forEach { $0.fireFaultIfNeeded() } }
                    return objects
                }
                // `fetchBatched(_:)` checked that every entity the fetch can return has a class of `Element`.
                let made = objects.map { $0 as! Element }
                batches[index] = made
                return made[...]
            }
        }
    }
}

extension NSManagedObjectContext {
    /// Runs `request` and returns its results as a collection that makes objects a batch of
    /// `fetchBatchSize` (100 when it is 0) at a time, as they are read. Counts, dictionaries and
    /// object IDs come back whole, as from `fetch(_:)`.
    ///
    /// The results are those `fetch(_:)` returns, unsaved changes included, and each object is the
    /// context's one instance for its ID.
    public func fetchBatched<T>(_ request: NSFetchRequest<T>) throws -> BatchedFetchResults<T> {
        try performAndWait {
            guard request.resultType == .managedObjectResultType else {
                return BatchedFetchResults(elements: try fetch(request))
            }
            let fetch = try storeFetch(for: request)
            try checkObjectClasses(of: fetch, are: T.self)
            return BatchedFetchResults(
                context: self,
                ids: try matchingObjectIDList(fetch, includesPendingChanges: request.includesPendingChanges),
                batchSize: request.fetchBatchSize > 0 ? request.fetchBatchSize : 100,
                prefetching: request.relationshipKeyPathsForPrefetching ?? [],
                firesFaults: !request.returnsObjectsAsFaults)
        }
    }

    /// Throws unless every entity `fetch` can return makes objects of type `T`, so that batches
    /// made later cannot fail.
    private func checkObjectClasses<T>(of fetch: StoreFetch, are _: T.Type) throws {
        let entities = fetch.includesSubentities
            ? (persistentStoreCoordinator?.managedObjectModel.entities ?? []).filter { $0.isKindOf(entity: fetch.entity) }
            : [fetch.entity]
        for entity in entities {
            let objectClass = ManagedObjectClassRegistry.shared.objectClass(for: entity)
            guard objectClass.init(_entity: entity, insertInto: nil) is T else {
                throw CoreDataError.misuse("The fetch request for \(fetch.entity.name ?? "") produces \(objectClass) objects for \(entity.name ?? ""), not \(T.self)")
            }
        }
    }
}
