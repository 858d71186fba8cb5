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

/// Our section info: a view over one section of a results snapshot.
///
/// Holding the snapshot section (copy-on-write) makes building the `sections` array O(s);
/// `objects` materializes rows only when asked.
final class FetchedResultsSectionInfo: NSFetchedResultsSectionInfo {
    let name: String
    let indexTitle: String?
    private let rows: [ResultsSnapshot<ResultIdentity, ResultSortKey>.Row]
    /// Set instead of `rows` for a section that no longer exists (a deletion report).
    private let formerObjects: [NSManagedObject]?

    init(_ section: ResultsSnapshot<ResultIdentity, ResultSortKey>.Section, indexTitle: String?) {
        name = section.name
        self.indexTitle = indexTitle
        rows = section.rows
        formerObjects = nil
    }

    /// A section known by its objects only.
    init(name: String, indexTitle: String?, objects: [NSManagedObject]) {
        self.name = name
        self.indexTitle = indexTitle
        rows = []
        formerObjects = objects
    }

    /// The empty unnamed section a controller without a section key path always shows.
    convenience init(emptyNamed name: String) {
        self.init(name: name, indexTitle: nil, objects: [])
    }

    var numberOfObjects: Int { formerObjects?.count ?? rows.count }

    var objects: [Any]? { formerObjects ?? rows.map { $0.id.object } }
}
