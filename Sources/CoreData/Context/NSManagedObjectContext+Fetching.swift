/// Fetching: the request runs in SQL (or in the parent), then this context's unsaved inserts,
/// edits and deletes are folded in, so results reflect what the context holds now.
extension NSManagedObjectContext {
    /// Runs `request` and returns its results as `T` (objects, IDs, dictionaries or a count).
    ///
    /// Throws a clear error for a malformed request (unknown entity or key, a changed template)
    /// where Apple raises an exception.
    public func fetch<T>(_ request: NSFetchRequest<T>) throws -> [T] {
        try performAndWait {
            releaseUnreferencedObjects()
            if let objectClass = T.self as? NSManagedObject.Type { ManagedObjectClassRegistry.shared.register(objectClass) }
            if request.resultType == .managedObjectResultType, let objectType = T.self as? NSManagedObject.Type {
                guard let typed = Self.cast(try fetchObjects(request), to: objectType, as: T.self) else {
                    throw CoreDataError.misuse("The fetch request for \(request.resolvedEntityName ?? "") produces objects of another class than \(T.self)")
                }
                return typed
            }
            let fetch = try storeFetch(for: request)
            let results: [Any]
            if request.resultType == .countResultType {
                results = [NSNumber(value: try count(fetch, includesPendingChanges: request.includesPendingChanges))]
            } else if request.resultType == .dictionaryResultType {
                results = try dictionaryResults(for: request, fetch: fetch)
            } else if request.resultType == .managedObjectIDResultType {
                results = try matchingObjectIDs(fetch, includesPendingChanges: request.includesPendingChanges)
            } else {
                results = try matchingObjects(fetch, request: request)
            }
            guard let typed = results as? [T] else {
                throw CoreDataError.misuse("The fetch request for \(fetch.entity.name ?? "") produces \(type(of: results.first ?? results)), not \(T.self)")
            }
            return typed
        }
    }

    /// `objects` as an array of `T`, a class of managed objects, when every one is of that
    /// class: one class check an object, none for `NSManagedObject` itself, which every object
    /// is (a subclass's object would otherwise take the runtime's class walk each). Casting the
    /// array (`as? [T]`) ran the runtime's general cast twice an object.
    private static func cast<T>(_ objects: [NSManagedObject], to objectType: NSManagedObject.Type, as _: T.Type) -> [T]? {
        guard objectType == NSManagedObject.self || objects.allSatisfy({ $0.isInstance(of: objectType) }) else { return nil }
        // An array of class references has the same layout whatever its element class, and
        // every element was just checked to be a `T`.
        return unsafeBitCast(objects, to: [T].self)
    }

    /// The objects a request for managed objects matches, uncast: for the framework's own
    /// callers (the fetched results controller), whose requests are typed
    /// `NSFetchRequestResult`. Faults among them hold the rows read for them.
    func fetchObjects<T>(_ request: NSFetchRequest<T>) throws -> [NSManagedObject] {
        try performAndWait {
            releaseUnreferencedObjects()
            return try matchingObjects(try storeFetch(for: request), request: request)
        }
    }

    /// The number of objects `request` would return, unsaved changes included.
    public func count<T>(for request: NSFetchRequest<T>) throws -> Int {
        try performAndWait {
            try count(try storeFetch(for: request), includesPendingChanges: request.includesPendingChanges)
        }
    }

    /// Checks a request and resolves it against the model.
    func storeFetch<T>(for request: NSFetchRequest<T>) throws -> StoreFetch {
        if let property = request.frozenMutation {
            throw CoreDataError.misuse("Fetch request templates are immutable, but '\(property)' was changed; copy the template or use fetchRequestFromTemplate(withName:substitutionVariables:)")
        }
        guard let model = persistentStoreCoordinator?.managedObjectModel else { throw noCoordinator() }
        guard let name = request.resolvedEntityName, let entity = model.entitiesByName[name] else {
            throw CoreDataError.misuse("The fetch request names no entity of the model: '\(request.resolvedEntityName ?? "nil")'")
        }
        var fetch = StoreFetch(entity: entity)
        fetch.includesSubentities = request.includesSubentities
        fetch.predicate = request.predicate
        fetch.sortDescriptors = request.sortDescriptors ?? []
        fetch.limit = request.fetchLimit
        fetch.offset = request.fetchOffset
        try InMemoryQuery.validate(fetch)
        return fetch
    }

    /// Objects of this context with unsaved changes that could affect `fetch`.
    private func pendingObjects(for fetch: StoreFetch) -> [NSManagedObject] {
        let candidates = insertedSet.union(deletedSet).union(changedSet.filter { !$0.changedKeys.isEmpty })
        return candidates.filter { object in
            fetch.includesSubentities ? object.entity.isKindOf(entity: fetch.entity) : object.entity === fetch.entity
        }
    }

    /// IDs matching `fetch`, in order, with this context's unsaved changes folded in.
    func matchingObjectIDs(_ fetch: StoreFetch, includesPendingChanges: Bool) throws -> [NSManagedObjectID] {
        Array(try matchingObjectIDList(fetch, includesPendingChanges: includesPendingChanges))
    }

    /// The same IDs compactly: a store's keys when no unsaved change bears on the fetch.
    func matchingObjectIDList(_ fetch: StoreFetch, includesPendingChanges: Bool) throws -> ObjectIDList {
        let pending = includesPendingChanges ? pendingObjects(for: fetch) : []
        if pending.isEmpty { return try upstreamObjectIDList(fetch) }
        return ObjectIDList(try mergedWithPendingChanges(fetch, pending: pending).map(\.objectID))
    }

    /// Counts without reading rows: the stored matches' IDs less the changed objects', plus the
    /// changed objects that match now.
    private func count(_ fetch: StoreFetch, includesPendingChanges: Bool) throws -> Int {
        let pending = includesPendingChanges ? pendingObjects(for: fetch) : []
        if pending.isEmpty { return try upstreamCount(fetch) }
        var unpaged = fetch
        unpaged.limit = 0
        unpaged.offset = 0
        unpaged.sortDescriptors = []
        let pendingIDs = Set(pending.map(\.objectID))
        let stored = try upstreamObjectIDList(unpaged).reduce(0) { $0 + (pendingIDs.contains($1) ? 0 : 1) }
        let matching = try InMemoryQuery.filter(pending.filter { !$0.deletedFlag }, by: fetch.predicate).count
        return InMemoryQuery.pageRange(count: stored + matching, offset: fetch.offset, limit: fetch.limit).count
    }

    /// The full result re-judged in memory: stored matches minus changed objects, plus changed
    /// objects that match now, sorted, then paged.
    private func mergedWithPendingChanges(_ fetch: StoreFetch, pending: [NSManagedObject]) throws -> [NSManagedObject] {
        var unpaged = fetch
        unpaged.limit = 0
        unpaged.offset = 0
        let pendingIDs = Set(pending.map(\.objectID))
        let rows = FetchedRows(try upstreamRows(unpaged))
        var objects = rows.indices.compactMap { slot -> NSManagedObject? in
            guard !pendingIDs.contains(rows[slot].objectID) else { return nil }
            return register(rows, at: slot, asFault: true, refresh: false)
        }
        objects += try InMemoryQuery.filter(pending.filter { !$0.deletedFlag }, by: fetch.predicate)
        try InMemoryQuery.sort(&objects, by: fetch.sortDescriptors)
        return InMemoryQuery.page(objects, offset: fetch.offset, limit: fetch.limit)
    }

    private func matchingObjects<T>(_ fetch: StoreFetch, request: NSFetchRequest<T>) throws -> [NSManagedObject] {
        let pending = request.includesPendingChanges ? pendingObjects(for: fetch) : []
        let objects: [NSManagedObject]
        if pending.isEmpty, request.fetchBatchSize > 0 {
            objects = try batchedObjects(fetch, batchSize: request.fetchBatchSize)
        } else if pending.isEmpty {
            let rows = FetchedRows(try upstreamRows(fetch))
            // Read once: a request's properties are checked for exclusive access on each read.
            let (asFault, refresh) = (request.returnsObjectsAsFaults, request.shouldRefreshRefetchedObjects)
            registered.reserveCapacity(registered.count + rows.count)
            objects = rows.indices.map { register(rows, at: $0, asFault: asFault, refresh: refresh) }
        } else {
            objects = try mergedWithPendingChanges(fetch, pending: pending)
            if !request.returnsObjectsAsFaults { objects.forEach { $0.fireFaultIfNeeded() } }
        }
        try prefetch(request.relationshipKeyPathsForPrefetching ?? [], for: objects)
        return objects
    }

    /// The registered object for the fetched row at `slot`. A fault keeps the row for when
    /// it fires; an object with unsaved changes keeps them.
    func register(_ rows: FetchedRows, at slot: Int, asFault: Bool, refresh: Bool) -> NSManagedObject {
        let object = self.object(with: rows[slot].objectID)
        if object.faultFlag {
            if asFault {
                object.awaitRow(at: slot, of: rows, in: self)
            } else {
                object.takeReadAheadRow(in: self)
                object.apply(rows[slot], in: self)
                awaken(fetched: object)
            }
        } else if refresh, !object.hasChanges {
            object.apply(rows[slot], in: self)
        }
        return object
    }

    /// Reads the destinations of `keyPaths` for all `objects` at once, instead of one fault at a
    /// time as each is touched.
    func prefetch(_ keyPaths: [String], for objects: [NSManagedObject]) throws {
        for keyPath in keyPaths {
            var level = objects
            for key in keyPath.split(separator: ".").map(String.init) {
                var next: [NSManagedObject] = []
                for object in level {
                    guard let relationship = object.entity.relationshipsByName[key] else { continue }
                    if relationship.isToMany {
                        next += object.toManyMembers(forKey: key).objects
                    } else if let target = object.primitiveValue(forKey: key) as? NSManagedObject {
                        next.append(target)
                    }
                }
                let faults = next.filter { $0.faultFlag && $0.readAheadRow == nil }
                for (id, row) in try upstreamRows(for: faults.map(\.objectID)) { rowCache[id] = row }
                level = next
            }
        }
    }
}
