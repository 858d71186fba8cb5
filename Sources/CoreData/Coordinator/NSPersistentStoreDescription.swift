/// What to open: a store's type, location and options, as `NSPersistentContainer` loads it.
open class NSPersistentStoreDescription: NSObject, @unchecked Sendable {
    /// The store type name; SQLite by default.
    public var type: String = NSSQLiteStoreType
    /// Where the store lives; nil lets an in-memory store have none.
    public var url: URL?
    /// The model configuration to use; accepted, not routed (one store serves every entity).
    public var configuration: String?
    /// `NSReadOnlyPersistentStoreOption` in `options`, so setting either sets both, as on Apple.
    public var isReadOnly: Bool {
        get { StoreOptions.flag(NSReadOnlyPersistentStoreOption, in: options) }
        set { options[NSReadOnlyPersistentStoreOption] = NSNumber(value: newValue) }
    }
    /// Seconds to wait for another process holding the write lock.
    public var timeout: TimeInterval = 10
    /// Accepted for source compatibility; stores are always added synchronously here.
    public var shouldAddStoreAsynchronously = false
    /// Whether a store written with an older model version is migrated when it loads.
    public var shouldMigrateStoreAutomatically = true
    /// Whether that migration may infer its mapping model (lightweight migration).
    public var shouldInferMappingModelAutomatically = true
    /// Store options by key (`NSPersistentHistoryTrackingKey`, …); set them with `setOption(_:forKey:)`.
    public private(set) var options: [String: NSObject] = [:]
    /// `NSSQLitePragmasOption` in `options`.
    public var sqlitePragmas: [String: NSObject] {
        var pragmas: [String: NSObject] = [:]
        for (key, value) in StoreOptions.dictionary(NSSQLitePragmasOption, in: options) ?? [:] {
            if let value = value as? NSObject { pragmas[key] = value }
        }
        return pragmas
    }

    /// A SQLite store with no URL yet.
    public override init() { super.init() }

    /// A SQLite store at `url`.
    public init(url: URL) {
        self.url = url
        super.init()
    }

    /// Sets or (with nil) removes one store option.
    public func setOption(_ option: NSObject?, forKey key: String) { options[key] = option }
    /// Sets or (with nil) removes one SQLite pragma, run on the writing connection when the store opens.
    public func setValue(_ value: NSObject?, forPragmaNamed name: String) {
        var pragmas = sqlitePragmas
        pragmas[name] = value
        options[NSSQLitePragmasOption] = NSDictionary(dictionary: pragmas)
    }

    /// The options handed to the store, including the typed properties.
    var allOptions: [AnyHashable: Any] {
        var all: [AnyHashable: Any] = [:]
        for (key, value) in options { all[key] = value }
        all[NSPersistentStoreTimeoutOption] = timeout
        // Explicit options win over the properties, as they are what ported code sets.
        if all[NSMigratePersistentStoresAutomaticallyOption] == nil { all[NSMigratePersistentStoresAutomaticallyOption] = shouldMigrateStoreAutomatically }
        if all[NSInferMappingModelAutomaticallyOption] == nil { all[NSInferMappingModelAutomaticallyOption] = shouldInferMappingModelAutomatically }
        return all
    }
}
