/// One section of a fetched results controller, as Apple's protocol describes it.
///
/// For example:
/// ```swift
/// let rows = controller.sections?[section].numberOfObjects ?? 0
/// ```
public protocol NSFetchedResultsSectionInfo {
    /// The section's name: the value at `sectionNameKeyPath` ("" without one).
    var name: String { get }
    /// The title in a section index, by default the name's capitalized first letter.
    var indexTitle: String? { get }
    /// How many objects the section holds.
    var numberOfObjects: Int { get }
    /// The section's objects in order.
    var objects: [Any]? { get }
}

/// Our section info: a live view of one section of a controller's results, found by name.
///
/// Live as Apple's are: an info handed out before a change reflects it when read afterwards (a
/// section the change deleted lists no objects). It holds the snapshot section it was made from
/// (copy-on-write, so building `sections` stays O(s)) and looks its section up again, in O(1)
/// by name, only when the controller's results have changed since; `objects` materializes rows
/// only when asked.
final class FetchedResultsSectionInfo: NSFetchedResultsSectionInfo {
    typealias Row = ResultsSnapshot<ResultIdentity, ResultSortKey>.Row

    let name: String
    let indexTitle: String?
    /// The controller state followed; nil for a section known by its objects only.
    private weak var state: FetchedResultsState?
    private var resolved: (generation: Int, rows: [Row])
    /// Set instead of following a state for a section that no longer exists (a deletion report).
    private let formerObjects: [NSManagedObject]?

    /// The section named `name` of `state`'s results, currently `rows`.
    init(name: String, indexTitle: String?, following state: FetchedResultsState, rows: [Row]) {
        self.name = name
        self.indexTitle = indexTitle
        self.state = state
        resolved = (state.generation, rows)
        formerObjects = nil
    }

    /// A section known by its objects only.
    init(name: String, indexTitle: String?, objects: [NSManagedObject]) {
        self.name = name
        self.indexTitle = indexTitle
        resolved = (0, [])
        formerObjects = objects
    }

    var numberOfObjects: Int { formerObjects?.count ?? currentRows.count }

    var objects: [Any]? { formerObjects ?? currentRows.map { $0.id.object } }

    /// The section's rows as of the state's latest results; none once the section is gone.
    private var currentRows: [Row] {
        guard let state, resolved.generation != state.generation else { return resolved.rows }
        let rows = state.snapshot.flatMap { snapshot in
            snapshot.sectionIndexByName[name].map { snapshot.sections[$0].rows }
        } ?? []
        resolved = (state.generation, rows)
        return rows
    }
}
