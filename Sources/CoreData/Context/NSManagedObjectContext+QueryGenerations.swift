/// Where a context stands with query generations.
enum QueryGenerationPin {
    /// Reads see the latest committed data (the default).
    case unpinned
    /// Pinned to whatever is committed when the context next reads the store.
    case atNextRead
    case pinned(QueryGeneration)
}

/// Query generations: a top-level context on a SQLite or PostgreSQL store can read one fixed
/// version of the data while other contexts, processes and machines save. A pinned context
/// moves to the latest generation when it saves, merges another context's save, or is reset,
/// as on Apple platforms; its own unsaved changes show as always.
extension NSManagedObjectContext {
    /// The token of the generation this context reads, or nil when it is not pinned. Asking
    /// pins a context set to `.current` now, so the token can pin other contexts to the
    /// same data.
    public var queryGenerationToken: NSQueryGenerationToken? {
        performAndWait {
            switch queryGenerationPin {
            case .unpinned: nil
            case .pinned(let generation): NSQueryGenerationToken(generation: generation)
            case .atNextRead: (try? pinCurrentGeneration()).map(NSQueryGenerationToken.init(generation:)) ?? .current
            }
        }
    }

    /// Pins this context to `generation` (`.current`: the data as of its next read, or the
    /// token of another context of the same coordinator); nil unpins it.
    ///
    /// Throws 134091 (`NSPersistentStoreUnsupportedRequestTypeError`) when the context reads
    /// through a parent context or its store keeps no generations (only the SQLite and
    /// PostgreSQL stores do), and 134060 (`NSCoreDataError`) for a token of another store.
    public func setQueryGenerationFrom(_ generation: NSQueryGenerationToken?) throws {
        try performAndWait {
            guard let generation else {
                queryGenerationPin = .unpinned
                return
            }
            guard parent == nil else {
                throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError,
                    "A child context reads through its parent; pin the parent to a query generation instead")
            }
            let store = try generationStore()
            guard let pinned = generation.generation else {
                queryGenerationPin = .atNextRead
                return
            }
            guard pinned.store === store else {
                throw CoreDataError.make(NSCoreDataError, "The query generation token belongs to another store (\(generation))")
            }
            queryGenerationPin = .pinned(pinned)
        }
    }

    /// Whether reads bypass the coordinator's row cache for a snapshot of their own.
    var readsPinnedGeneration: Bool {
        if case .unpinned = queryGenerationPin { return false }
        return true
    }

    /// Runs a read of the store in this context's query generation.
    func readingQueryGeneration<T>(_ read: () throws -> T) throws -> T {
        switch queryGenerationPin {
        case .unpinned: return try read()
        case .pinned(let generation): return try QueryGeneration.$pinned.withValue(generation, operation: read)
        case .atNextRead: return try QueryGeneration.$pinned.withValue(try pinCurrentGeneration(), operation: read)
        }
    }

    /// Moves a pinned context to the generation current at its next read (after a save, a
    /// merge or a reset).
    func advanceQueryGeneration() {
        if case .pinned = queryGenerationPin { queryGenerationPin = .atNextRead }
    }

    /// Moves a pinned context to the generation its own save just made, returning its token
    /// for the did-save notification; nil for a context that does not pin generations.
    func queryGenerationAfterSave() -> NSQueryGenerationToken? {
        guard readsPinnedGeneration else { return nil }
        guard let generation = try? pinCurrentGeneration() else {
            queryGenerationPin = .atNextRead
            return nil
        }
        return NSQueryGenerationToken(generation: generation)
    }

    private func pinCurrentGeneration() throws -> QueryGeneration {
        let generation = try generationStore().makeQueryGeneration()
        queryGenerationPin = .pinned(generation)
        return generation
    }

    private func generationStore() throws -> any QueryGenerationStore {
        guard let coordinator = persistentStoreCoordinator else { throw noCoordinator() }
        guard let store = try coordinator.store(for: nil).queryGenerations else {
            throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "Query generations need a SQLite or PostgreSQL store")
        }
        return store
    }
}
