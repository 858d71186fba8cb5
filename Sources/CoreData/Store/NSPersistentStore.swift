/// Apple's store type names.
public let NSSQLiteStoreType = "SQLite"
public let NSInMemoryStoreType = "InMemory"
public let NSBinaryStoreType = "Binary"

/// Store metadata keys.
public let NSStoreTypeKey = "NSStoreType"
public let NSStoreUUIDKey = "NSStoreUUID"
public let NSStoreModelVersionHashesKey = "NSStoreModelVersionHashes"

/// Store option keys accepted (and, where noted, honoured).
public let NSReadOnlyPersistentStoreOption = "NSReadOnlyPersistentStoreOption"
public let NSMigratePersistentStoresAutomaticallyOption = "NSMigratePersistentStoresAutomaticallyOption"
public let NSInferMappingModelAutomaticallyOption = "NSInferMappingModelAutomaticallyOption"
public let NSPersistentHistoryTrackingKey = "NSPersistentHistoryTrackingKey"
/// Seconds to wait for another process's write lock (SQLite busy timeout).
public let NSPersistentStoreTimeoutOption = "NSPersistentStoreTimeoutOption"

/// A place objects are kept: a SQLite file or memory.
///
/// Subclasses implement the internal row-level operations the coordinator routes to them; every
/// operation runs under the store's own lock, so contexts on different queues can share it.
open class NSPersistentStore: NSObject, @unchecked Sendable {
    public let type: String
    public var url: URL?
    public let configurationName: String
    public let options: [AnyHashable: Any]?
    public internal(set) weak var persistentStoreCoordinator: NSPersistentStoreCoordinator?
    public internal(set) var identifier: String!
    public var metadata: [String: Any]! = [:]
    public var isReadOnly: Bool

    /// Serialises every operation on the store's state and connection.
    let lock = NSRecursiveLock()

    init(type: String, url: URL?, configurationName: String?, options: [AnyHashable: Any]?) {
        self.type = type
        self.url = url
        self.configurationName = configurationName ?? "Default"
        self.options = options
        self.isReadOnly = (options?[NSReadOnlyPersistentStoreOption] as? Bool) ?? false
        super.init()
    }

    // MARK: Operations each kind of store implements

    /// Opens or creates the store for `model`; throws without touching an incompatible file.
    func load(model: NSManagedObjectModel) throws { try abstract() }
    func fetchRows(_ fetch: StoreFetch) throws -> [RowSnapshot] { try abstract() }
    func fetchObjectIDs(_ fetch: StoreFetch) throws -> [NSManagedObjectID] { try abstract() }
    /// The same IDs, compactly; a store that can read keys without making IDs overrides it.
    func fetchObjectIDList(_ fetch: StoreFetch) throws -> ObjectIDList { ObjectIDList(try fetchObjectIDs(fetch)) }
    func count(_ fetch: StoreFetch) throws -> Int { try abstract() }
    /// The rows for `ids`, missing ones left out (deleted elsewhere).
    func rows(for ids: [NSManagedObjectID]) throws -> [NSManagedObjectID: RowSnapshot] { try abstract() }
    /// The members of `source`'s to-many `relationship`, in order for ordered relationships.
    func relatedObjectIDs(_ relationship: NSRelationshipDescription, of source: NSManagedObjectID) throws -> [NSManagedObjectID] { try abstract() }
    /// Reserves `count` new primary keys for rows of `entity`.
    func allocatePrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64] { try abstract() }
    /// Applies a save in one transaction, throwing `StoreVersionConflict` if a row moved on.
    func apply(_ changes: StoreChanges) throws { try abstract() }
    /// Releases files and connections.
    func close() {}

    private func abstract() throws -> Never {
        throw CoreDataError.misuse("\(Swift.type(of: self)) does not implement this store operation")
    }

    /// A permanent ID in this store.
    func objectID(for entity: NSEntityDescription, primaryKey: Int64) -> NSManagedObjectID {
        NSManagedObjectID(entity: entity, primaryKey: primaryKey, store: self)
    }

    /// Runs `body` holding the store's lock.
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
