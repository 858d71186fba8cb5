/// How a context confines its work.
public enum NSManagedObjectContextConcurrencyType: UInt, Sendable {
    /// Deprecated by Apple; treated here as a private queue.
    case confinementConcurrencyType = 0
    case privateQueueConcurrencyType = 1
    /// Work runs on the main queue; in a command-line program the main queue runs only under
    /// `dispatchMain()`, `RunLoop.main.run()` or top-level `await` (DESIGN.md §6).
    case mainQueueConcurrencyType = 2
}

/// A scratchpad of managed objects: it registers objects, tracks their changes, fetches, and
/// saves everything to its parent or persistent store coordinator in one step.
///
/// A context is confined to its queue: use `perform` or `performAndWait` from other threads,
/// and pass `NSManagedObjectID`s, not objects, between contexts.
open class NSManagedObjectContext: NSObject, @unchecked Sendable {
    public let concurrencyType: NSManagedObjectContextConcurrencyType
    public var name: String?
    public var transactionAuthor: String?
    /// `NSErrorMergePolicy` (the default) or another `NSMergePolicy`.
    public var mergePolicy: Any = NSMergePolicy.error
    /// Merge saves of the parent (or, for a top-level context, of sibling contexts on the same
    /// coordinator) into this context automatically, on this context's queue.
    public var automaticallyMergesChangesFromParent = false { didSet { observeSaves() } }
    /// Accepted for source compatibility, not honoured beyond the default: there is no shared
    /// row cache to go stale. Fetches always read the store; a loaded object keeps its values
    /// until it is refreshed or a merge updates it, whatever the interval.
    public var stalenessInterval: TimeInterval = -1
    public var shouldDeleteInaccessibleFaults = true
    public var retainsRegisteredObjects = false
    public var userInfo = NSMutableDictionary()

    private var coordinator: NSPersistentStoreCoordinator?
    public var parent: NSManagedObjectContext? {
        didSet {
            oldValue?.removeChild(self)
            parent?.addChild(self)
            observeSaves()
        }
    }

    let queue: DispatchQueue
    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()
    private static let mainQueueMarker: ObjectIdentifier = {
        let marker = ObjectIdentifier(NSManagedObjectContext.self)
        DispatchQueue.main.setSpecific(key: queueKey, value: marker)
        return marker
    }()

    // Object graph state; touched only on the context's queue.
    var registered: [NSManagedObjectID: NSManagedObject] = [:]
    var insertedSet: Set<NSManagedObject> = []
    var deletedSet: Set<NSManagedObject> = []
    var changedSet: Set<NSManagedObject> = []
    var unprocessedInserted: Set<NSManagedObject> = []
    var unprocessedUpdated: Set<NSManagedObject> = []
    var unprocessedDeleted: Set<NSManagedObject> = []
    var isProcessingScheduled = false
    var insertionCounter: UInt64 = 0
    /// Misuse found by calls that cannot throw (relating objects of two contexts), thrown by the
    /// next `save()`. Locked because the misuse may come from another context's queue.
    let misuseLock = NSLock()
    var misuseErrors: [NSError] = []
    /// Rows read ahead of their objects' faults firing (from fetches and prefetching).
    var rowCache: [NSManagedObjectID: RowSnapshot] = [:]
    private var children: [WeakContext] = []
    private var saveObserver: NSObjectProtocol?

    public init(concurrencyType: NSManagedObjectContextConcurrencyType) {
        self.concurrencyType = concurrencyType
        if concurrencyType == .mainQueueConcurrencyType {
            _ = Self.mainQueueMarker
            queue = .main
        } else {
            queue = DispatchQueue(label: "CoreData.NSManagedObjectContext")
        }
        super.init()
        if concurrencyType != .mainQueueConcurrencyType {
            queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
        }
    }

    deinit {
        if let saveObserver { NotificationCenter.default.removeObserver(saveObserver) }
    }

    /// The coordinator this context (or its top-level ancestor) saves through.
    public var persistentStoreCoordinator: NSPersistentStoreCoordinator? {
        get { coordinator ?? parent?.persistentStoreCoordinator }
        set { coordinator = newValue }
    }

    // MARK: Queue confinement

    /// Whether the caller is already running on this context's queue.
    var isOnQueue: Bool {
        let current = DispatchQueue.getSpecific(key: Self.queueKey)
        if concurrencyType == .mainQueueConcurrencyType { return Thread.isMainThread || current == Self.mainQueueMarker }
        return current == ObjectIdentifier(self)
    }

    /// Runs `block` asynchronously on the context's queue, then processes pending changes.
    public func perform(_ block: @escaping () -> Void) {
        let work = UncheckedSendable(block)
        queue.async {
            work.value()
            self.processPendingChanges()
        }
    }

    /// Runs `block` on the context's queue and waits for it; runs at once if already there.
    public func performAndWait(_ block: () -> Void) {
        onQueue(block)
    }

    /// Runs `block` on the context's queue and returns its result.
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        try onQueue(block)
    }

    private func onQueue<T>(_ block: () throws -> T) rethrows -> T {
        if isOnQueue { return try block() }
        return try withoutActuallyEscaping(block) { escapable in
            let work = UncheckedSendable(escapable)
            let result = try queue.sync { UncheckedSendable(try work.value()) }
            return result.value
        }
    }

    /// How an async `perform` schedules its block.
    public enum ScheduledTaskType: Sendable {
        /// Runs at once when already on the context's queue, otherwise enqueued.
        case immediate
        /// Always enqueued behind work already waiting.
        case enqueued
    }

    /// Runs `block` on the context's queue without blocking the caller, returning its result.
    ///
    /// Runs on the caller's executor until it hops (`nonisolated(nonsending)`), so that
    /// `.immediate` from the main actor finds itself on a main-queue context's queue.
    nonisolated(nonsending) public func perform<T>(schedule: ScheduledTaskType = .immediate, _ block: @escaping () throws -> T) async throws -> T {
        if schedule == .immediate, isOnQueue {
            let result = try block()
            processPendingChanges()
            return result
        }
        let work = UncheckedSendable(block)
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<UncheckedSendable<T>, Error>) in
            queue.async {
                do {
                    let result = try work.value()
                    self.processPendingChanges()
                    continuation.resume(returning: UncheckedSendable(result))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }.value
    }

    // MARK: Children

    private final class WeakContext {
        weak var context: NSManagedObjectContext?
        init(_ context: NSManagedObjectContext) { self.context = context }
    }

    private func addChild(_ child: NSManagedObjectContext) {
        children.removeAll { $0.context == nil }
        children.append(WeakContext(child))
    }

    private func removeChild(_ child: NSManagedObjectContext) {
        children.removeAll { $0.context == nil || $0.context === child }
    }

    var childContexts: [NSManagedObjectContext] { children.compactMap(\.context) }

    /// Listens for saves this context should merge when `automaticallyMergesChangesFromParent` is on.
    private func observeSaves() {
        if let saveObserver { NotificationCenter.default.removeObserver(saveObserver) }
        saveObserver = nil
        guard automaticallyMergesChangesFromParent else { return }
        saveObserver = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSaveObjectIDs, object: nil, queue: nil) { [weak self] notification in
            guard let self, let source = notification.object as? NSManagedObjectContext, source !== self else { return }
            let fromParent = source === self.parent
            let fromSibling = self.parent == nil && source.parent == nil
                && source.persistentStoreCoordinator === self.persistentStoreCoordinator
            guard fromParent || fromSibling else { return }
            let changes = UncheckedSendable(notification.userInfo ?? [:])
            self.perform { self.mergeChanges(fromObjectIDs: changes.value) }
        }
    }
}

/// Carries a value the compiler cannot prove thread-safe across a queue hop that the context's
/// confinement rules make safe (the value is only used on the destination queue).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
