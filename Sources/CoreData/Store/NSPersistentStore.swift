// Apple's store type names.

/// The SQLite store's type name (the default store).
public let NSSQLiteStoreType = "SQLite"
/// The in-memory store's type name.
public let NSInMemoryStoreType = "InMemory"
/// The binary (atomic, one-file) store's type name.
public let NSBinaryStoreType = "Binary"

// Store metadata keys.

/// Metadata key of the store's type name.
public let NSStoreTypeKey = "NSStoreType"
/// Metadata key of the store's UUID, which object ID URIs carry as their host.
public let NSStoreUUIDKey = "NSStoreUUID"
/// Metadata key of the entity version hashes the store was written with; migration compares them.
public let NSStoreModelVersionHashesKey = "NSStoreModelVersionHashes"

// Store option keys accepted (and, where noted, honoured).

/// Option: open the store for reading only; a save into it throws.
public let NSReadOnlyPersistentStoreOption = "NSReadOnlyPersistentStoreOption"
/// Option: migrate a store written with an older model version when it is added.
public let NSMigratePersistentStoresAutomaticallyOption = "NSMigratePersistentStoresAutomaticallyOption"
/// Option: infer a mapping model when no custom one is given (lightweight migration).
public let NSInferMappingModelAutomaticallyOption = "NSInferMappingModelAutomaticallyOption"
/// Option (SQLite): record every save as a transaction in the store's persistent history.
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
    /// The type name the store was added under (`NSSQLiteStoreType`, a registered name, …).
    open var type: String { registeredType }
    /// Where the store lives; `/dev/null` for a private SQLite store that keeps nothing.
    public var url: URL?
    /// The model configuration named when the store was added (`Default` when none was).
    public let configurationName: String
    /// The options the store was added with.
    public let options: [AnyHashable: Any]?
    /// The coordinator the store belongs to; weak, since the coordinator holds its stores.
    public internal(set) weak var persistentStoreCoordinator: NSPersistentStoreCoordinator?
    /// The store's UUID (`NSStoreUUIDKey`), the same at every open of a file.
    open var identifier: String!
    /// Key-value pairs kept with the store: type, UUID, version hashes, and any keys you add.
    open var metadata: [String: Any]! = [:]
    /// Whether saves are refused; set by `NSReadOnlyPersistentStoreOption`.
    open var isReadOnly: Bool

    /// Whether contexts report registering and forgetting objects (incremental stores track
    /// them; the built-in stores do not, and a fetch of a million faults then makes no calls).
    var observesRegistrations = false

    /// Serialises every operation on a built-in store's state and connection.
    let lock = NSRecursiveLock()

    /// Makes a store for `url`; the coordinator calls it, then `loadMetadata()`.
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
