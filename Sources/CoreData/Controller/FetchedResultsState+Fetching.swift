/// `performFetch()`: fetch, read sort keys and section names once, build the snapshot.
extension FetchedResultsState {
    /// Fetches on the context's queue, waiting for it. O(n) reads plus the fetch; O(n log n)
    /// only if the store's order differs from ours (it does not when it sorts as we do).
    func performFetch() throws {
        try context.performAndWait { try fetchOnQueue() }
    }

    /// The fetch itself; must run on the context's queue.
    func fetchOnQueue() throws {
        let request = erasedRequest()
        // An empty array is accepted, as Apple's controller does: objects keep the store's
        // order (object ID order, which is also the tie-breaker of every ordering).
        guard let descriptors = request.sortDescriptors else {
            throw CoreDataError.misuse(
                "An instance of NSFetchedResultsController requires a fetch request with sort descriptors",
                ["entity": request.resolvedEntityName ?? ""])
        }
        guard request.resultType == .managedObjectResultType else {
            throw CoreDataError.misuse(
                "NSFetchedResultsController tracks managed objects: the fetch request's resultType must be .managedObjectResultType")
        }
        let entity = request.entity ?? request.resolvedEntityName.flatMap {
            context.persistentStoreCoordinator?.managedObjectModel.entitiesByName[$0]
        }
        // A fetch may process pending changes and post a notification: with no snapshot it is
        // ignored (the new snapshot includes those changes) instead of being applied to the old
        // snapshot under the new request's ordering.
        install(nil)
        ordering = ResultOrdering(descriptors, entity: entity)
        sectionNaming = sectionNaming.bound(to: entity)
        self.entity = entity
        refreshPaths = entity.map {
            RelationshipRefreshPath.paths(
                from: $0,
                refreshing: request.relationshipKeyPathsForRefreshing,
                placing: ordering.keyPaths + [sectionNaming.keyPath].compactMap { $0 }
                    + (request.predicate?.referencedKeyPaths ?? []))
        } ?? []
        activeRequest = request
        startObserving()

        // An order by closures or typed key paths has no keys to store, so it gets no cache.
        if let cacheName, let entity, ordering.isIncremental {
            cache = SectionCache(name: cacheName, request: request, entity: entity, sectionKeyPath: sectionNaming.keyPath, context: context)
        } else {
            cache = nil
        }
        if let cached = try cache?.cachedSnapshot(ordering: ordering) {
            loadedFromCache = true
            install(cached)
        } else {
            loadedFromCache = false
            install(try fetchSnapshot(request))
            cache?.write(snapshot!)
        }
        deliverInitialSnapshot()
    }

    /// Whether the controller reads key paths of its objects: sort keys it orders by itself,
    /// or a section name.
    var readsObjectKeys: Bool { ordering.isIncremental || sectionNaming.keyPath != nil }

    /// The row the fetch left with `object`, a fault, looked up once for all its sort keys and
    /// its section name; nil, without a look-up, when the controller reads no key.
    func readAheadRow(of object: NSManagedObject) -> RowSnapshot? {
        readsObjectKeys ? ResultKeyPath.readAheadRow(of: object) : nil
    }

    /// Runs `request`, which `fetchOnQueue()` checked asks for managed objects, and arranges
    /// its objects into a snapshot.
    func fetchSnapshot(_ request: NSFetchRequest<NSFetchRequestResult>) throws -> Snapshot {
        let fetched = try context.fetchObjects(loadingRequest(for: request))
        // Copied out of `self` once: each use of a stored property of a class in the loop copied
        // the struct (retaining everything it holds) for the call.
        let (ordering, naming, readsKeys) = (ordering, sectionNaming, readsObjectKeys)
        var snapshot = Snapshot(areInIncreasingOrder: ordering.areInIncreasingOrder)
        snapshot.reserveCapacity(fetched.count)
        // Should the store break ties or collate differently, our order rules: rows from the
        // first one out of our order on are sorted in afterwards, so later incremental updates
        // land where this snapshot expects.
        var outOfOrder: [(id: ResultIdentity, key: ResultSortKey, section: String)] = []
        for (position, object) in fetched.enumerated() {
            guard acceptsObject(object) else {
                throw CoreDataError.misuse("NSFetchedResultsController fetched \(type(of: object)), not its result type")
            }
            let row = readsKeys ? ResultKeyPath.readAheadRow(of: object) : nil
            let key = ordering.isIncremental ? ordering.key(for: object, readAhead: row) : ordering.positionKey(position)
            let section = naming.name(for: object, readAhead: row, sortKey: key, ordering: ordering)
            if outOfOrder.isEmpty, snapshot.appendInOrder(id: ResultIdentity(object), key: key, section: section) { continue }
            outOfOrder.append((ResultIdentity(object), key, section))
        }
        return outOfOrder.isEmpty ? snapshot : Snapshot(rows: snapshot.rows + outOfOrder, areInIncreasingOrder: ordering.areInIncreasingOrder)
    }

    /// The request to fetch with. The controller reads every object's sort keys and section
    /// name, from the rows the fetch leaves with its faults; batches of faults would instead
    /// each be read by a query of their own.
    private func loadingRequest(for request: NSFetchRequest<NSFetchRequestResult>) -> NSFetchRequest<NSFetchRequestResult> {
        guard request.fetchBatchSize > 0, readsObjectKeys else { return request }
        let loading = request.copyRequest(as: NSFetchRequestResult.self)
        loading.fetchBatchSize = 0
        return loading
    }

    /// Subscribes to the context's change and save notifications, once.
    private func startObserving() {
        guard observation == nil else { return }
        // The context posts synchronously on its own queue, where this state lives; the box
        // only carries the weak reference into the `@Sendable` observer block.
        let target = UncheckedSendable(WeakState(self))
        observation = NotificationCenter.default.addObserver(
            forName: .NSManagedObjectContextObjectsDidChange, object: context, queue: nil
        ) { notification in
            target.value.state?.contextObjectsDidChange(notification.userInfo ?? [:])
        }
        saveObservation = NotificationCenter.default.addObserver(
            forName: .NSManagedObjectContextDidSave, object: context, queue: nil
        ) { _ in
            target.value.state?.cache?.noteOwnSave()
        }
    }
}

/// A weak reference to the state, for the notification observer.
final class WeakState {
    weak var state: FetchedResultsState?

    init(_ state: FetchedResultsState) {
        self.state = state
    }
}
