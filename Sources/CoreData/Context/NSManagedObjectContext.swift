import Synchronization

/// How a context confines its work.
public enum NSManagedObjectContextConcurrencyType: UInt, Sendable {
    /// Deprecated by Apple; treated here as a private queue.
    case confinementConcurrencyType = 0
    /// Work runs on a serial queue of the context's own; the usual choice off the main queue.
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
    /// Which queue the context's work runs on; fixed at creation.
    public let concurrencyType: NSManagedObjectContextConcurrencyType
    /// A name for logs; also recorded as `contextName` in persistent history.
    public var name: String?
    /// Recorded as the `author` of the history transactions this context's saves make.
    public var transactionAuthor: String?
    /// `NSErrorMergePolicy` (the default) or another `NSMergePolicy`.
    public var mergePolicy: Any = NSMergePolicy.error
    /// Merge saves of the parent (or, for a top-level context, of sibling contexts on the same
    /// coordinator) into this context automatically, on this context's queue.
    public var automaticallyMergesChangesFromParent = false { didSet { observeSaves() } }
    /// How old a row in the coordinator's shared row cache may be for this context to fire a
    /// fault or merge from it instead of reading the store: negative (the default) accepts any
    /// age, 0 always reads the store. Fetches always read the store; a loaded object keeps its
    /// values until it is refreshed or a merge updates it.
    public var stalenessInterval: TimeInterval = -1
    /// Whether a fault whose row was deleted elsewhere reads as empty (true) or makes the next save throw 133000.
    public var shouldDeleteInaccessibleFaults = true
    /// Whether the context keeps every registered object alive. False (the default, as on Apple
    /// platforms): an unchanged object nobody else references leaves `registeredObjects` after a
    /// save or as the context grows, and is read again if asked for.
    public var retainsRegisteredObjects = false
    /// Anything you want to keep with the context; the framework does not read it.
    public var userInfo = NSMutableDictionary()

    /// Where this context sits: its parent or coordinator and its children. Set from any thread
    /// (a child is often attached on the thread that creates it) and read on every context's
    /// queue, so it is guarded.
    private let links = Locked(ContextLinks())

    /// The context this one saves into; nil for a context on a coordinator.
    public var parent: NSManagedObjectContext? {
        get { links.withLock { $0.parent } }
        set {
            let oldValue = links.withLock { links in
                defer { links.parent = newValue }
                return links.parent
            }
            oldValue?.removeChild(self)
            newValue?.addChild(self)
            observeSaves()
        }
    }

    /// The queue every use of this context and its objects is confined to.
    let queue: ReentrantQueue

    // Object graph state; touched only on the context's queue. The hot tables skip the runtime's
    // dynamic exclusivity check (see the note in `NSManagedObject`): nothing holds an access to
    // one of them open across a call that could touch it again.
    @exclusivity(unchecked) var registered = RegisteredObjects()
    /// The subclass the last fault was made of, and its entity: a fetch makes thousands of faults
    /// of one entity, and asking the class registry by name hashes the class name each time.
    @exclusivity(unchecked) var lastFaultClass: (entity: NSEntityDescription, objectClass: NSManagedObject.Type)?
    @exclusivity(unchecked) var insertedSet = ManagedObjectSet()
    @exclusivity(unchecked) var deletedSet = ManagedObjectSet()
    @exclusivity(unchecked) var changedSet = ManagedObjectSet()
    @exclusivity(unchecked) var unprocessedInserted = ManagedObjectSet()
    @exclusivity(unchecked) var unprocessedUpdated = ManagedObjectSet()
    @exclusivity(unchecked) var unprocessedDeleted = ManagedObjectSet()
    @exclusivity(unchecked) var isProcessingScheduled = false
    /// How many registered objects make the next fetch look for objects to let go (see
    /// `NSManagedObjectContext+WeakRegistration.swift`).
    var releaseThreshold = NSManagedObjectContext.minimumReleaseThreshold
    /// Objects saved since the outermost block on the queue began, let go of when it ends.
    @exclusivity(unchecked) var pendingSavedObjects: [NSManagedObjectID] = []
    var insertionCounter: UInt64 = 0
    /// Misuse found by calls that cannot throw (relating objects of two contexts), thrown by the
    /// next `save()`. Locked because the misuse may come from another context's queue.
    let misuseLock = NSLock()
    var misuseErrors: [NSError] = []
    /// Rows read ahead of their objects' faults firing, for the faults that cannot hold their
    /// fetch's row themselves (see `FetchedRows`): faults with state, and rows read by batches,
    /// prefetching and merges. `NSManagedObject.readAheadRow` looks in both places.
    @exclusivity(unchecked) var rowCache = ObjectIDMap<RowSnapshot>()
    /// The query generation this context reads the store at (see `setQueryGenerationFrom`).
    var queryGenerationPin = QueryGenerationPin.unpinned
    /// Temporary IDs an ancestor's save made permanent, not yet adopted (see
    /// `NSManagedObjectContext+PermanentIDs.swift`); filled from the ancestor's queue.
    let pendingPermanentIDs = Locked<[NSManagedObjectID: NSManagedObjectID]>([:])
    let hasPendingPermanentIDs = Atomic<Bool>(false)
    private let saveObserver = Locked<SaveObserver?>(nil)
    /// The undo manager and the step being recorded for it (see `NSManagedObjectContext+Undo.swift`).
    var undoRecording: UndoRecording?
    /// Off only for a migration's batch saves: objects whose relationships a later pass fills
    /// in are saved half-made to bound memory, and validated in the migration's last pass.
    var validatesOnSave = true

    /// A context whose work runs on the queue `concurrencyType` names; set a coordinator or parent before use.
    public init(concurrencyType: NSManagedObjectContextConcurrencyType) {
        ConcurrencyDebug.readEnvironment()
        self.concurrencyType = concurrencyType
        queue = concurrencyType == .mainQueueConcurrencyType ? .main : ReentrantQueue(label: "CoreData.NSManagedObjectContext")
        super.init()
    }

    /// The coordinator this context (or its top-level ancestor) saves through.
    public var persistentStoreCoordinator: NSPersistentStoreCoordinator? {
        get {
            let (coordinator, parent) = links.withLock { ($0.coordinator, $0.parent) }
            return coordinator ?? parent?.persistentStoreCoordinator
        }
        set { links.withLock { $0.coordinator = newValue } }
    }

    // MARK: Queue confinement

    /// Whether the caller is on this context's queue, directly or through nested synchronous calls.
    var isOnQueue: Bool { queue.isCurrent }

    /// Runs `block` asynchronously on the context's queue, then processes pending changes.
    public func perform(_ block: @escaping () -> Void) {
        queue.async {
            block()
            self.processPendingChanges()
            self.releasePendingSavedObjects()
        }
    }

    /// Runs `block` on the context's queue and waits for it; runs at once when the thread is
    /// already on it, however deeply nested (a parent's queue inside a child's, for instance).
    public func performAndWait(_ block: () -> Void) {
        runOnQueue(block)
    }

    /// Runs `block` on the context's queue and returns its result.
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        try runOnQueue(block)
    }

    private func runOnQueue<T>(_ block: () throws -> T) rethrows -> T {
        // Objects the block saved and no longer holds go when the outermost block ends, as an
        // autorelease pool drains after a block on Apple platforms.
        if isOnQueue { return try block() }
        return try queue.sync {
            defer { releasePendingSavedObjects() }
            return try block()
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
    /// `rethrows`, as on Apple platforms: awaiting a block that cannot throw needs no `try`.
    ///
    /// For example:
    /// ```swift
    /// let count = await context.perform { context.registeredObjects.count }
    /// ```
    ///
    /// Runs on the caller's executor until it hops (`nonisolated(nonsending)`), so that
    /// `.immediate` from the main actor finds itself on a main-queue context's queue.
    nonisolated(nonsending) public func perform<T>(schedule: ScheduledTaskType = .immediate, _ block: @escaping () throws -> T) async rethrows -> T {
        if schedule == .immediate, isOnQueue {
            let result = try block()
            processPendingChanges()
            return result
        }
        let outcome = await queue.outcome {
            defer { self.releasePendingSavedObjects() }
            let result = try block()
            self.processPendingChanges()
            return result
        }
        return try rethrowing { try outcome.get() }
    }

    // MARK: Children

    private func addChild(_ child: NSManagedObjectContext) {
        links.withLock { links in
            links.children.removeAll { $0.context == nil }
            links.children.append(WeakContext(child))
        }
    }

    private func removeChild(_ child: NSManagedObjectContext) {
        links.withLock { $0.children.removeAll { $0.context == nil || $0.context === child } }
    }

    var childContexts: [NSManagedObjectContext] { links.withLock { $0.children.compactMap(\.context) } }

    /// Listens for saves this context should merge when `automaticallyMergesChangesFromParent` is on.
    private func observeSaves() {
        let observer = automaticallyMergesChangesFromParent ? SaveObserver(for: self) : nil
        saveObserver.withLock { $0 = observer }
    }
}

/// A context's parent or coordinator and its children, guarded together.
private struct ContextLinks {
    var parent: NSManagedObjectContext?
    var coordinator: NSPersistentStoreCoordinator?
    var children: [WeakContext] = []
}

private final class WeakContext {
    weak var context: NSManagedObjectContext?
    init(_ context: NSManagedObjectContext) { self.context = context }
}

/// The registration that merges a parent's (or a top-level sibling's) saves into a context with
/// `automaticallyMergesChangesFromParent`; removed when released.
private final class SaveObserver: @unchecked Sendable {
    private var token: NSObjectProtocol?

    init(for context: NSManagedObjectContext) {
        token = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSaveObjectIDs, object: nil, queue: nil) { [weak context] notification in
            guard let context, let source = notification.object as? NSManagedObjectContext, source !== context else { return }
            let parent = context.parent
            let fromParent = source === parent
            let fromSibling = parent == nil && source.parent == nil
                && source.persistentStoreCoordinator === context.persistentStoreCoordinator
            guard fromParent || fromSibling else { return }
            let userInfo = notification.userInfo ?? [:]
            // The parent posts this on its own queue, inside its save: its rows are read here, so
            // the merge never waits for the parent's queue. With a main-queue parent, the main
            // thread may be waiting for this context (`performAndWait`) behind the merge.
            let parentRows = fromParent ? source.performAndWait { source.currentRows(for: source.objectIDsToRead(in: userInfo)) } : nil
            let changes = UncheckedSendable((userInfo, parentRows))
            context.perform { context.mergeChanges(fromObjectIDs: changes.value.0, rows: changes.value.1) }
        }
    }

    deinit {
        if let token { NotificationCenter.default.removeObserver(token) }
    }
}
