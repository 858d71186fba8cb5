/// Connects a model to its stores: creates and opens them, hands out object IDs, and routes
/// every read and save of every context to the right store.
///
/// Thread-safe: stores serialise their own work, and the store list is guarded by a lock.
open class NSPersistentStoreCoordinator: NSObject, @unchecked Sendable {
    /// The model of every store the coordinator opens; frozen from the coordinator's creation.
    public let managedObjectModel: NSManagedObjectModel
    private var stores: [any RowStore] = []
    private let lock = NSRecursiveLock()
    /// A name for logs and debugging.
    public var name: String?
    /// The queue `perform` and `performAndWait` run on. The coordinator's own operations are
    /// thread-safe without it; it serialises the blocks callers hand it, as on Apple platforms.
    let queue = ReentrantQueue(label: "CoreData.NSPersistentStoreCoordinator")
    /// Rows read or saved by any of this coordinator's contexts.
    let rowCache = RowCache()

    /// Freezes `model`: from here on, changing it stops the program with a message naming the
    /// model and the property, as editing a model in use raises on Apple platforms.
    public init(managedObjectModel model: NSManagedObjectModel) {
        self.managedObjectModel = model
        super.init()
        model.freeze()
        ModelRegistry.shared.add(model)
    }

    /// The stores added so far, in the order they were added.
    public var persistentStores: [NSPersistentStore] {
        lock.lock()
        defer { lock.unlock() }
        return stores.map { $0 }
    }

    /// Opens (or creates) a store. A file that is not a store, or one written with another
    /// model, throws and is left untouched.
    @discardableResult
    public func addPersistentStore(ofType storeType: String, configurationName: String?, at storeURL: URL?,
                                   options: [AnyHashable: Any]? = nil) throws -> NSPersistentStore {
        guard let storeClass = StoreTypeRegistry.shared.storeClass(for: storeType) else {
            throw CoreDataError.make(NSPersistentStoreInvalidTypeError,
                "Unsupported store type '\(storeType)'; use NSSQLiteStoreType, NSInMemoryStoreType, NSBinaryStoreType or a type registered with registerStoreClass(_:type:)")
        }
        // In-memory stores may have no URL; the initialiser Apple's subclasses override takes one.
        let store = storeClass.init(persistentStoreCoordinator: self, configurationName: configurationName,
                                    at: storeURL ?? URL(fileURLWithPath: "/dev/null"), options: options)
        store.registeredType = storeType
        if storeURL == nil { store.url = nil }
        try store.load(model: managedObjectModel)
        changingStores(added: [store]) {
            lock.lock()
            stores.append(store)
            lock.unlock()
            store.didAdd(to: self)
        }
        return store
    }

    /// Adds the store a description describes, calling back with the outcome.
    public func addPersistentStore(with description: NSPersistentStoreDescription,
                                   completionHandler block: @escaping (NSPersistentStoreDescription, (any Error)?) -> Void) {
        do {
            try addPersistentStore(ofType: description.type, configurationName: description.configuration,
                                   at: description.url, options: description.allOptions)
            block(description, nil)
        } catch {
            block(description, error)
        }
    }

    /// Closes `store` and takes it out of the coordinator; throws if it is not one of its stores.
    public func remove(_ store: NSPersistentStore) throws {
        guard persistentStores.contains(where: { $0 === store }) else {
            throw CoreDataError.misuse("The store is not one of this coordinator's stores")
        }
        changingStores(removed: [store]) {
            NotificationCenter.default.post(name: .NSPersistentStoreCoordinatorWillRemoveStore, object: store)
            lock.lock()
            defer { lock.unlock() }
            store.willRemove(from: self)
            guard let index = stores.firstIndex(where: { $0 === store }) else { return }
            stores[index].close()
            stores.remove(at: index)
        }
    }

    /// Destroys the store at `url`, as Apple's framework does: a SQLite database is emptied in
    /// place (the file stays, so a tear-down that removes it afterwards still works, and the
    /// next `addPersistentStore` there starts a new store); a binary store's file is removed.
    /// `/dev/null`, or nothing at `url`, is a no-op. Anything that is not a store of `storeType`
    /// (a device, FIFO, socket, directory, symbolic link, or a file in another format) is left
    /// untouched and named in a thrown 259.
    public func destroyPersistentStore(at url: URL, type storeType: String = NSSQLiteStoreType, options: [AnyHashable: Any]? = nil) throws {
        if let store = persistentStore(for: url) { try remove(store) }
        switch storeType {
        case NSSQLiteStoreType: try SQLiteStore.destroyStoreFile(at: url)
        case NSBinaryStoreType: try BinaryStore.destroyStoreFile(at: url)
        default: break
        }
    }

    /// The same as `destroyPersistentStore(at:type:options:)`, in Apple's older spelling.
    public func destroyPersistentStore(at url: URL, ofType storeType: String, options: [AnyHashable: Any]? = nil) throws {
        try destroyPersistentStore(at: url, type: storeType, options: options)
    }

    /// The store added at `url`, if any.
    public func persistentStore(for url: URL) -> NSPersistentStore? {
        persistentStores.first { $0.url?.standardizedFileURL == url.standardizedFileURL }
    }

    /// The metadata `store` holds now, including changes not yet saved.
    public func metadata(for store: NSPersistentStore) -> [String: Any] { store.metadata ?? [:] }

    /// Replaces `store`'s metadata; a SQLite or PostgreSQL store writes it with the next save. The keys the
    /// store manages (its UUID, type, model version hashes and Apple's bookkeeping beside
    /// them) are kept whatever `metadata` says.
    public func setMetadata(_ metadata: [String: Any]?, for store: NSPersistentStore) {
        let updated = Self.metadata(metadata, keepingStoreKeysOf: store.metadata ?? [:])
        store.lock.withLock {
            store.metadata = updated
            rowStore(store)?.metadataWasSet(updated)
        }
    }

    /// `metadata` with the keys a store manages (its UUID, type, model version hashes and
    /// Apple's bookkeeping beside them) as `current` has them, whatever `metadata` says.
    static func metadata(_ metadata: [String: Any]?, keepingStoreKeysOf current: [String: Any]) -> [String: Any] {
        var updated = metadata ?? [:]
        for key in [NSStoreUUIDKey, NSStoreTypeKey] + SQLiteStoreMetadata.bookkeepingKeys {
            updated[key] = current[key]
        }
        return updated
    }

    /// The ID a URI from `uriRepresentation()` names, or nil if it names no store or entity here.
    public func managedObjectID(forURIRepresentation url: URL) -> NSManagedObjectID? {
        guard url.scheme == "x-coredata", let host = url.host, !host.isEmpty else { return nil }
        let parts = url.path.split(separator: "/")
        guard parts.count == 2, parts[1].first == "p", let key = Int64(parts[1].dropFirst()), key > 0,
              let entity = managedObjectModel.entitiesByName[String(parts[0])],
              let store = persistentStores.first(where: { $0.identifier == host }) else { return nil }
        return store.objectID(for: entity, primaryKey: key)
    }

    // MARK: Routing

    /// The store holding `entity`'s rows (any store when `entity` is nil): the first store, as
    /// this coordinator supports one configuration (see README).
    func store(for entity: NSEntityDescription?) throws -> any RowStore {
        lock.lock()
        defer { lock.unlock() }
        guard let store = stores.first else {
            throw CoreDataError.misuse("The persistent store coordinator has no stores; call loadPersistentStores first")
        }
        return store
    }

    /// The coordinator's own view of `store`, one of its `persistentStores`; nil for a store it
    /// does not hold.
    func rowStore(_ store: NSPersistentStore) -> (any RowStore)? {
        lock.lock()
        defer { lock.unlock() }
        return stores.first { $0 === store }
    }

    func store(for objectID: NSManagedObjectID) throws -> any RowStore {
        if let owner = objectID.persistentStore {
            lock.lock()
            defer { lock.unlock() }
            if let store = stores.first(where: { $0 === owner }) { return store }
        }
        return try store(for: objectID.entity)
    }

    /// The rows for `ids`: from the row cache where the context's staleness interval allows,
    /// the rest from the store (and then cached).
    func rows(for ids: [NSManagedObjectID], for context: NSManagedObjectContext) throws -> [NSManagedObjectID: RowSnapshot] {
        guard !ids.isEmpty else { return [:] }
        // A context pinned to a query generation reads its snapshot: the cache may hold newer
        // rows, and its older rows must not replace current ones there.
        let cached = !context.readsPinnedGeneration
        var (rows, missing) = cached ? rowCache.rows(for: ids, stalenessInterval: context.stalenessInterval) : ([:], ids)
        if let first = missing.first {
            let read = try store(for: first).rows(for: missing, for: context)
            if cached { rowCache.store(read.values) }
            rows.merge(read) { _, new in new }
        }
        // An ID built from a URI may name another entity than its row's (a sibling or an abstract
        // parent sharing the table and primary key): no object of that entity exists.
        let requested = Dictionary(ids.map { ($0, $0.entity) }, uniquingKeysWith: { first, _ in first })
        return rows.filter { id, row in requested[id] === row.objectID.entity }
    }

    /// The rows `fetch` matches, read from the store (a fetch always does) and cached.
    func fetchRows(_ fetch: StoreFetch, for context: NSManagedObjectContext) throws -> [RowSnapshot] {
        let rows = try store(for: fetch.entity).fetchRows(fetch, for: context)
        if !context.readsPinnedGeneration { rowCache.store(rows) }
        return rows
    }

    /// Writes a save and caches the rows it wrote.
    /// Writes the metadata `setMetadata(_:for:)` gave that no save has written yet.
    func writePendingMetadata() throws {
        for store in persistentStores { try rowStore(store)?.writePendingMetadata() }
    }

    func apply(_ changes: StoreChanges, from context: NSManagedObjectContext) throws {
        try store(for: nil).apply(changes, from: context)
        rowCache.remove(changes.deleted.map(\.objectID))
        rowCache.store(changes.inserted + changes.updated.map(\.row))
    }
}
