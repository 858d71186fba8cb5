/// Apple's `-com.apple.CoreData.ConcurrencyDebug 1`, as the environment variable
/// `CORE_DATA_CONCURRENCY_DEBUG=1`: touching a managed object, or a context's object-graph API,
/// off the context's queue stops the program with a message naming the object, the context and
/// the thread.
///
/// Read once, when the first context is made (nothing can be touched before that). When off,
/// each check is one load of a statically initialised global and a branch: a lazily initialised
/// `static let` would cost a `swift_once` call on every property access. The work of finding
/// the queue and building the message happens only when on.
enum ConcurrencyDebug {
    /// Written once, by `readEnvironment`, before any context exists; read-only afterwards.
    nonisolated(unsafe) private(set) static var isEnabled = false

    /// Reads `CORE_DATA_CONCURRENCY_DEBUG`; called by every context's initialiser, runs once.
    static func readEnvironment() { _ = environmentRead }

    private static let environmentRead: Void = {
        guard let text = ProcessInfo.processInfo.environment["CORE_DATA_CONCURRENCY_DEBUG"] else { return }
        isEnabled = (Int(text) ?? 0) > 0
    }()

    /// Stops the program if `object` is touched off its context's queue.
    @inline(__always)
    static func check(_ object: NSManagedObject) {
        guard isEnabled, let context = object.managedObjectContext, !context.isOnQueue else { return }
        stop("the managed object \(object.entity.name ?? "NSManagedObject") \(object.objectID.uriRepresentation().absoluteString)", context: context)
    }

    /// Stops the program if `context`'s confined state is touched off its queue; `member` names
    /// the API used.
    @inline(__always)
    static func check(_ context: NSManagedObjectContext, _ member: @autoclosure () -> String) {
        guard isEnabled, !context.isOnQueue else { return }
        stop("\(member())", context: context)
    }

    private static func stop(_ what: String, context: NSManagedObjectContext) -> Never {
        let queueKind = context.concurrencyType == .mainQueueConcurrencyType ? "main queue" : "private queue"
        let contextName = context.name.map { "'\($0)'" } ?? "unnamed"
        let thread = Thread.isMainThread ? "the main thread" : "\(Thread.current)"
        fatalError("CoreData concurrency violation: \(what) of context \(contextName) (\(queueKind), \(ObjectIdentifier(context))) was touched on \(thread), which is not on the context's queue. Use perform or performAndWait.")
    }
}
