/// Everything a fetched results controller knows, shared by the typed controller the app
/// holds and the `NSFetchedResultsController<NSFetchRequestResult>` view its delegate receives.
///
/// Confinement: like the context it watches, the state is used on the context's queue only
/// (fetches run inside `performAndWait`, change notifications are posted synchronously there).
/// The one exception, the list of `changes` subscribers, is guarded by a lock because a
/// subscriber may go away from any thread.
final class FetchedResultsState {
    typealias Snapshot = ResultsSnapshot<ResultIdentity, ResultSortKey>

    /// Which optional summary forms the delegate implements, learned from the defaults.
    struct DelegateForms: OptionSet {
        let rawValue: UInt8
        static let snapshot = DelegateForms(rawValue: 1)
        static let difference = DelegateForms(rawValue: 2)
    }

    let context: NSManagedObjectContext
    /// Bound to the request's entity by each `performFetch` (see `ResultKeyPath`).
    var sectionNaming: SectionNaming
    let cacheName: String?

    /// The request object the app handed in (an `NSFetchRequest<ResultType>`).
    var request: AnyObject
    /// A fresh `NSFetchRequest<NSFetchRequestResult>` copy of `request`.
    var erasedRequest: () -> NSFetchRequest<NSFetchRequestResult>
    /// Whether an object is of the controller's `ResultType`: a class check when that is a
    /// class of managed objects, rather than a runtime cast of every fetched object.
    let acceptsObject: (NSManagedObject) -> Bool

    /// The request as of the last `performFetch()`: what change tracking evaluates against.
    var activeRequest: NSFetchRequest<NSFetchRequestResult>?
    var entity: NSEntityDescription?
    var ordering = ResultOrdering([])
    var refreshPaths: [RelationshipRefreshPath] = []
    var snapshot: Snapshot?
    /// Bumped whenever the snapshot changes; views cache derived arrays per generation.
    private(set) var generation = 0

    weak var delegate: (any NSFetchedResultsControllerDelegate)? {
        didSet {
            delegateForms = [.snapshot, .difference]
            generation &+= 1  // section index titles come from the delegate
        }
    }
    var delegateForms: DelegateForms = [.snapshot, .difference]
    /// The erased view handed to the delegate; owned by the typed controller.
    weak var erasedController: NSFetchedResultsController<NSFetchRequestResult>?

    var observation: (any NSObjectProtocol)?
    var saveObservation: (any NSObjectProtocol)?
    var cache: SectionCache?
    /// Whether the last `performFetch()` started from the on-disk cache.
    var loadedFromCache = false
    let subscribers = ChangeSubscribers()

    init<ResultType>(
        request: NSFetchRequest<ResultType>, context: NSManagedObjectContext,
        sectionNameKeyPath: String?, cacheName: String?
    ) {
        self.context = context
        self.request = request
        erasedRequest = { request.copyRequest(as: NSFetchRequestResult.self) }
        if let objectClass = ResultType.self as? NSManagedObject.Type {
            acceptsObject = { $0.isInstance(of: objectClass) }
        } else {
            acceptsObject = { $0 is ResultType }
        }
        sectionNaming = SectionNaming(keyPath: sectionNameKeyPath)
        self.cacheName = cacheName
    }

    deinit {
        if let observation { NotificationCenter.default.removeObserver(observation) }
        if let saveObservation { NotificationCenter.default.removeObserver(saveObservation) }
        cache?.flushIfDirty(snapshot: snapshot)
        subscribers.finishAll()
    }

    /// Replaces the request for the next `performFetch()`.
    func setRequest<ResultType>(_ newRequest: NSFetchRequest<ResultType>) {
        request = newRequest
        erasedRequest = { newRequest.copyRequest(as: NSFetchRequestResult.self) }
    }

    /// Installs a new snapshot (nil: not fetched) and invalidates derived views.
    func install(_ newSnapshot: Snapshot?) {
        snapshot = newSnapshot
        generation &+= 1
    }

    /// The snapshot was edited in place: invalidate derived views.
    func snapshotDidChange() {
        generation &+= 1
    }

    /// Whether the section key path was given (without one there is always exactly one section).
    var hasSectionKeyPath: Bool { sectionNaming.keyPath != nil }
}
