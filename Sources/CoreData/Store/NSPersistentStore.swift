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

/// A place objects are kept: a SQLite file, memory, or whatever an `NSIncrementalStore`
/// subclass reaches.
///
/// The coordinator makes stores from their registered class with
/// `init(persistentStoreCoordinator:configurationName:at:options:)`, so that initialiser is
/// `required` here (Apple's is only designated: Objective-C can call any initialiser of a class
/// it holds, Swift only a required one). What a store does is the internal `RowStore` protocol;
/// the built-in stores serialise their work under `lock`, so contexts on different queues can
/// share them.
open class NSPersistentStore: NSObject, @unchecked Sendable {
    /// The type name the store was added under; set by the coordinator for registered classes.
    var registeredType: String
    open var type: String { registeredType }
    public var url: URL?
    public let configurationName: String
    public let options: [AnyHashable: Any]?
    public internal(set) weak var persistentStoreCoordinator: NSPersistentStoreCoordinator?
    open var identifier: String!
    open var metadata: [String: Any]! = [:]
    open var isReadOnly: Bool

    /// Whether contexts report registering and forgetting objects (incremental stores track
    /// them; the built-in stores do not, and a fetch of a million faults then makes no calls).
    var observesRegistrations = false

    /// Serialises every operation on a built-in store's state and connection.
    let lock = NSRecursiveLock()

    public required init(persistentStoreCoordinator root: NSPersistentStoreCoordinator?, configurationName name: String?,
                         at url: URL, options: [AnyHashable: Any]? = nil) {
        self.registeredType = ""
        self.url = url
        self.persistentStoreCoordinator = root
        self.configurationName = name ?? "Default"
        self.options = options
        self.isReadOnly = StoreOptions.flag(NSReadOnlyPersistentStoreOption, in: options ?? [:])
        super.init()
    }

    /// Reads the store's metadata; subclasses that keep metadata override it.
    open func loadMetadata() throws {}

    /// Called after the coordinator added the store.
    open func didAdd(to coordinator: NSPersistentStoreCoordinator) {}

    /// Called before the coordinator removes the store.
    open func willRemove(from coordinator: NSPersistentStoreCoordinator?) {}

    /// Objects with these IDs are now in use in a context (a new fault, or a fetched object).
    open func managedObjectContextDidRegisterObjects(with objectIDs: [NSManagedObjectID]) {}

    /// Objects with these IDs are no longer used by a context (it was reset).
    open func managedObjectContextDidUnregisterObjects(with objectIDs: [NSManagedObjectID]) {}

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
/// An `NSStagedMigrationManager` that migrates the store through its stages when it opens.
public let NSPersistentStoreStagedMigrationManagerOptionKey = "NSPersistentStoreStagedMigrationManagerOptionKey"
