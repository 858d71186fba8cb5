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

    init(_ section: ResultsSnapshot<ResultIdentity, ResultSortKey>.Section, indexTitle: String?) {
        name = section.name
        self.indexTitle = indexTitle
        rows = section.rows
    }

    /// The empty unnamed section a controller without a section key path always shows.
    init(emptyNamed name: String) {
        self.name = name
        indexTitle = nil
        rows = []
    }

    var numberOfObjects: Int { rows.count }

    var objects: [Any]? { rows.map { $0.id.object } }
}
