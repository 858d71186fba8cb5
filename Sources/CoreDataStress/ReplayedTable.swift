import CoreData

/// The rows a table view would hold if it only ever applied the controller's reports, one batch
/// update from `controllerWillChangeContent` to `controllerDidChangeContent`: deletions at old
/// index paths (rows, then sections), then insertions at new ones (sections, then rows).
/// After each batch it must equal the controller's sections; where it does not, the mismatch is
/// recorded and the table starts again from the controller's sections.
final class ReplayedTable: NSFetchedResultsControllerDelegate {
    struct Section: Equatable {
        var name: String
        var rows: [ObjectIdentifier]
    }

    private(set) var sections: [Section]
    private(set) var mismatches: [String] = []
    /// Batches applied so far, and when the last one ended.
    private(set) var batches = 0
    private(set) var lastBatchEnded = Date.distantPast

    private var deletedRows: [IndexPath] = []
    private var insertedRows: [(path: IndexPath, row: ObjectIdentifier)] = []
    private var deletedSections: [Int] = []
    private var insertedSections: [(index: Int, name: String)] = []

    /// Starts from the controller's sections and becomes its delegate.
    init(replaying controller: NSFetchedResultsController<NSManagedObject>) {
        sections = Self.sections(controller.sections)
        controller.delegate = self
    }

    static func sections(_ sections: [NSFetchedResultsSectionInfo]?) -> [Section] {
        (sections ?? []).map { Section(name: $0.name, rows: ($0.objects ?? []).map { ObjectIdentifier($0 as AnyObject) }) }
    }

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        deletedRows = []
        insertedRows = []
        deletedSections = []
        insertedSections = []
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {
        switch type {
        case .insert: insertedSections.append((sectionIndex, sectionInfo.name))
        case .delete: deletedSections.append(sectionIndex)
        default: break
        }
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?,
                    for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        let row = ObjectIdentifier(anObject as AnyObject)
        if type == .delete || type == .move, let indexPath { deletedRows.append(indexPath) }
        if type == .insert || type == .move, let newIndexPath { insertedRows.append((newIndexPath, row)) }
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        let expected = Self.sections(controller.sections)
        if let replayed = applyBatch(), replayed == expected {
            sections = replayed
        } else {
            mismatches.append("batch \(batches + 1) does not give the controller's \(expected.map { "\($0.name): \($0.rows.count)" })")
            sections = expected
        }
        batches += 1
        lastBatchEnded = Date()
    }

    /// The table after this batch's reports, or nil when one names a place that is not there.
    private func applyBatch() -> [Section]? {
        var table = sections
        for path in deletedRows.sorted(by: >) {
            guard table.indices.contains(path.section), table[path.section].rows.indices.contains(path.item) else { return nil }
            table[path.section].rows.remove(at: path.item)
        }
        for index in deletedSections.sorted(by: >) {
            guard table.indices.contains(index) else { return nil }
            table.remove(at: index)
        }
        for (index, name) in insertedSections.sorted(by: { $0.index < $1.index }) {
            guard index <= table.count else { return nil }
            table.insert(Section(name: name, rows: []), at: index)
        }
        for (path, row) in insertedRows.sorted(by: { $0.path < $1.path }) {
            guard table.indices.contains(path.section), path.item <= table[path.section].rows.count else { return nil }
            table[path.section].rows.insert(row, at: path.item)
        }
        return table
    }
}
