/// What to open: a store's type, location and options, as `NSPersistentContainer` loads it.
open class NSPersistentStoreDescription: NSObject, @unchecked Sendable {
    public var type: String = NSSQLiteStoreType
    public var url: URL?
    public var configuration: String?
    public var isReadOnly = false
    /// Seconds to wait for another process holding the write lock.
    public var timeout: TimeInterval = 10
    /// Accepted for source compatibility; stores are always added synchronously here.
    public var shouldAddStoreAsynchronously = false
    public var shouldMigrateStoreAutomatically = true
    public var shouldInferMappingModelAutomatically = true
    public private(set) var options: [String: NSObject] = [:]
    public private(set) var sqlitePragmas: [String: NSObject] = [:]

    public override init() { super.init() }

    public init(url: URL) {
        self.url = url
        super.init()
    }

    public func setOption(_ option: NSObject?, forKey key: String) { options[key] = option }
    public func setValue(_ value: NSObject?, forPragmaNamed name: String) { sqlitePragmas[name] = value }

    /// The options handed to the store, including the typed properties.
    var allOptions: [AnyHashable: Any] {
        var all: [AnyHashable: Any] = [:]
        for (key, value) in options { all[key] = value }
        all[NSReadOnlyPersistentStoreOption] = isReadOnly
        all[NSPersistentStoreTimeoutOption] = timeout
        return all
    }
}
