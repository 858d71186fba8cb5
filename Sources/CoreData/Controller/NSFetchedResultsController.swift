/// Keeps the results of a fetch request in sections, and tells its delegate how they change
/// as the managed object context changes: Apple's `NSFetchedResultsController`.
///
/// For example:
/// ```swift
/// let request = NSFetchRequest<Team>(entityName: "Team")
/// request.sortDescriptors = [NSSortDescriptor(key: "qualifyingZone", ascending: true),
///                            NSSortDescriptor(key: "wins", ascending: false),
///                            NSSortDescriptor(key: "teamName", ascending: true)]
/// let controller = NSFetchedResultsController(
///     fetchRequest: request, managedObjectContext: context,
///     sectionNameKeyPath: "qualifyingZone", cacheName: "worldCup")
/// controller.delegate = self
/// try controller.performFetch()
/// let team = controller.object(at: IndexPath(row: 0, section: 0))
/// ```
///
/// A change to k objects costs about k·log n: changed objects are evaluated against the
/// predicate in memory and placed by binary search over the sort keys read when they were
/// fetched. Changes of unknown scope (a reset, a refresh of everything, a request with
/// `fetchLimit`/`fetchOffset` or with comparator-based sort descriptors) refetch and diff in
/// linear time. Reports satisfy a table's batch-update rules (see DESIGN.md §7).
///
/// The generic parameter is unconstrained, like `NSFetchRequest`'s, so
/// `NSFetchedResultsController<NSFetchRequestResult>` is a valid type. Delegate methods receive
/// the controller as that type: a typed controller hands its delegate an erased view sharing
/// its state. The view is `==` to the controller (and its `hash` agrees) but not `===`.
///
/// Use a controller on its context's queue, like the context itself.
open class NSFetchedResultsController<ResultType>: NSObject {
    let state: FetchedResultsState
    /// For a typed controller: the erased view its delegate receives.
    private var erasedView: NSFetchedResultsController<NSFetchRequestResult>?
    private var typedObjects: (generation: Int, objects: [ResultType])?
    private var sectionInfos: (generation: Int, sections: [any NSFetchedResultsSectionInfo])?

    /// Creates a controller; nothing is fetched until `performFetch()`.
    ///
    /// - parameter fetchRequest: needs sort descriptors (an empty array keeps the store's order); with a section key path,
    ///   the first one should order by it.
    /// - parameter context: the context to fetch from and to follow; use the controller on its queue.
    /// - parameter sectionNameKeyPath: groups objects into sections by this value (it may go
    ///   through to-one relationships); nil gives one section.
    /// - parameter name: keeps section information on disk under this name between launches.
    public init(
        fetchRequest: NSFetchRequest<ResultType>, managedObjectContext context: NSManagedObjectContext,
        sectionNameKeyPath: String?, cacheName name: String?
    ) {
        state = FetchedResultsState(
            request: fetchRequest, context: context, sectionNameKeyPath: sectionNameKeyPath, cacheName: name)
        super.init()
        if let same = self as? NSFetchedResultsController<NSFetchRequestResult> {
            state.erasedController = same
        } else {
            let view = NSFetchedResultsController<NSFetchRequestResult>(sharing: state)
            erasedView = view
            state.erasedController = view
        }
    }

    /// The erased view: same state, typed for `NSFetchRequestResult`.
    init(sharing state: FetchedResultsState) {
        self.state = state
        super.init()
    }

    // MARK: Configuration

    /// The request; change it only between fetches (then call `performFetch()` again).
    public var fetchRequest: NSFetchRequest<ResultType> {
        get {
            if let request = state.request as? NSFetchRequest<ResultType> { return request }
            // The other side of the erased/typed pair set it, or this is the erased view: a
            // copy typed for this side.
            return state.erasedRequest().copyRequest(as: ResultType.self)
        }
        set { state.setRequest(newValue) }
    }

    /// The context the controller fetches from and watches.
    public var managedObjectContext: NSManagedObjectContext { state.context }

    /// The key path whose value names each object's section; nil for a single section.
    public var sectionNameKeyPath: String? { state.sectionNaming.keyPath }

    /// The name the section cache is kept under, or nil for no cache.
    public var cacheName: String? { state.cacheName }

    /// Receives changes; held weakly.
    public weak var delegate: (any NSFetchedResultsControllerDelegate)? {
        get { state.delegate }
        set { state.delegate = newValue }
    }

    /// Removes the cache named `name`, or all caches when nil.
    open class func deleteCache(withName name: String?) {
        SectionCache.delete(named: name)
    }

    // MARK: Fetching

    /// Fetches the results and computes sections (or loads them from the cache).
    ///
    /// Throws (where Apple raises) if the request's `sortDescriptors` is nil.
    open func performFetch() throws {
        try state.performFetch()
    }

    // MARK: Results

    /// The fetched objects in order, or nil before the first fetch.
    public var fetchedObjects: [ResultType]? {
        guard let snapshot = state.snapshot else { return nil }
        if let cached = typedObjects, cached.generation == state.generation { return cached.objects }
        let objects = snapshot.ids.map { $0.object as! ResultType }
        typedObjects = (state.generation, objects)
        return objects
    }

    /// The sections, or nil before the first fetch.
    public var sections: [any NSFetchedResultsSectionInfo]? {
        guard let snapshot = state.snapshot else { return nil }
        if let cached = sectionInfos, cached.generation == state.generation { return cached.sections }
        var sections: [any NSFetchedResultsSectionInfo] = snapshot.sections.map(state.sectionInfo)
        if !state.hasSectionKeyPath, sections.isEmpty {
            sections = [FetchedResultsSectionInfo(name: "", indexTitle: nil, following: state, rows: [])]
        }
        sectionInfos = (state.generation, sections)
        return sections
    }

    /// The object at `indexPath` (section, row). Traps on an invalid index path, as Apple raises.
    public func object(at indexPath: IndexPath) -> ResultType {
        guard let snapshot = state.snapshot else {
            preconditionFailure("NSFetchedResultsController: object(at:) before performFetch()")
        }
        let address = RowAddress(section: indexPath[0], row: indexPath[1])
        precondition(
            address.section < snapshot.sections.count && address.row < snapshot.sections[address.section].rows.count,
            "NSFetchedResultsController: no object at index path \(indexPath)")
        return snapshot[address].id.object as! ResultType
    }

    /// Where `object` is, or nil if it is not among the results: O(log n).
    public func indexPath(forObject object: ResultType) -> IndexPath? {
        guard let managed = object as? NSManagedObject,
              let address = state.snapshot?.address(of: ResultIdentity(managed))
        else { return nil }
        return IndexPath(address)
    }

    // MARK: Section index

    /// The distinct index titles, in section order.
    open var sectionIndexTitles: [String] {
        var seen = Set<String>()
        var titles: [String] = []
        for section in sections ?? [] {
            guard let title = section.indexTitle, seen.insert(title).inserted else { continue }
            titles.append(title)
        }
        return titles
    }

    /// The index title for a section name: the delegate's, or the capitalized first letter.
    open func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        state.indexTitle(forSectionName: sectionName)
    }

    /// The section a section-index tap on `title` (at `sectionIndex` in the index) should show.
    open func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        let sections = self.sections ?? []
        if let index = sections.firstIndex(where: { $0.indexTitle == title }) { return index }
        return Swift.max(0, Swift.min(sectionIndex, sections.count - 1))
    }

    // MARK: Identity shared with the erased view

    /// True for this controller and for the erased view its delegate receives.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSObject else { return false }
        if other === self { return true }
        return (other as? FetchedResultsStateHolder)?.sharedState === state
    }

    /// The same for the controller and its erased view, as `isEqual(_:)` requires.
    open override var hash: Int { ObjectIdentifier(state).hashValue }
}

/// Lets `isEqual` recognize any specialization of the controller.
protocol FetchedResultsStateHolder: AnyObject {
    var sharedState: FetchedResultsState { get }
}

extension NSFetchedResultsController: FetchedResultsStateHolder {
    var sharedState: FetchedResultsState { state }
}
