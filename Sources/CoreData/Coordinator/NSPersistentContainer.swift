/// The whole stack in one object: model, coordinator, stores and a main-queue view context.
///
/// For example:
/// ```swift
/// let container = NSPersistentContainer(name: "HitList")
/// container.loadPersistentStores { _, error in
///     if let error { print("Unresolved error \(error)") }
/// }
/// let context = container.viewContext
/// ```
open class NSPersistentContainer: NSObject, @unchecked Sendable {
    /// The container's name; it names the model to look for and the default store file.
    public let name: String
    /// The model every store and context of the container uses.
    public let managedObjectModel: NSManagedObjectModel
    /// The coordinator that owns the stores `loadPersistentStores` adds.
    public let persistentStoreCoordinator: NSPersistentStoreCoordinator
    /// One SQLite store at `defaultDirectoryURL()/<name>.sqlite` unless changed before loading.
    public var persistentStoreDescriptions: [NSPersistentStoreDescription]
    /// Why `init(name:)` found no model, reported by `loadPersistentStores`.
    private var modelLookupError: NSError?

    /// A container for the model `<name>.xcdatamodeld` (or its compiled `<name>.momd`) found
    /// next to the program (its bundle, SwiftPM resource bundles, or the current directory).
    public convenience init(name: String) {
        guard let url = ModelBundleLocator.modelURL(named: name) else {
            self.init(name: name, managedObjectModel: NSManagedObjectModel())
            modelLookupError = CoreDataError.make(NSPersistentStoreOpenError,
                "No model named '\(name).xcdatamodeld' or '\(name).momd' was found next to the program or in the current directory")
            return
        }
        do {
            self.init(name: name, managedObjectModel: try NSManagedObjectModel.load(contentsOf: url))
        } catch {
            // A model that exists but cannot be read is reported with its file and line.
            self.init(name: name, managedObjectModel: NSManagedObjectModel())
            modelLookupError = error as NSError
        }
    }

    /// The designated initialiser, as on Apple platforms: a subclass that declares no
    /// initialiser of its own inherits it and `init(name:)`, and its `defaultDirectoryURL()`
    /// override places the default store.
    public init(name: String, managedObjectModel model: NSManagedObjectModel) {
        self.name = name
        self.managedObjectModel = model
        self.persistentStoreCoordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        self.persistentStoreDescriptions = [NSPersistentStoreDescription(url: Self.defaultDirectoryURL().appendingPathComponent("\(name).sqlite"))]
        super.init()
    }

    /// Where stores go by default: `$XDG_DATA_HOME/<program>` or `~/.local/share/<program>`, the
    /// Linux counterpart of an app's Application Support folder.
    open class func defaultDirectoryURL() -> URL {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_DATA_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        return base.appendingPathComponent(ProcessInfo.processInfo.processName)
    }

    /// Opens every described store, calling `block` once per store with nil or the error.
    public func loadPersistentStores(completionHandler block: @escaping (NSPersistentStoreDescription, (any Error)?) -> Void) {
        for description in persistentStoreDescriptions {
            if let modelLookupError {
                block(description, modelLookupError)
                continue
            }
            persistentStoreCoordinator.addPersistentStore(with: description, completionHandler: block)
        }
    }

    /// The main-queue context for the user interface, created on first use.
    public private(set) lazy var viewContext: NSManagedObjectContext = {
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        context.name = "viewContext"
        return context
    }()

    /// A new private-queue context on the coordinator, for work off the main queue.
    public func newBackgroundContext() -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        return context
    }

    /// Runs `block` on a new private-queue context.
    public func performBackgroundTask(_ block: @escaping (NSManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { block(context) }
    }

    /// Runs `block` on a new private-queue context and returns its result; `rethrows`, as on Apple platforms.
    public func performBackgroundTask<T>(_ block: @escaping (NSManagedObjectContext) throws -> T) async rethrows -> T {
        let context = newBackgroundContext()
        return try await context.perform(schedule: .enqueued) { try block(context) }
    }
}
