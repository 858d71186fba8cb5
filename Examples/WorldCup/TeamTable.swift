import CoreData

/// The on-screen table, kept only from the controller's delegate callbacks: it is never
/// reloaded from the store, so a wrong callback shows up as a wrong table.
@MainActor
final class TeamTable {
    struct Row: Equatable {
        var name: String
        var wins: Int
    }

    struct Section: Equatable {
        var name: String
        var rows: [Row]
    }

    private(set) var sections: [Section] = []
    private(set) var log: [String] = []
    private var sectionDeletes: [Int] = []
    private var sectionInserts: [(Int, String)] = []
    private var rowDeletes: [IndexPath] = []
    private var rowInserts: [(IndexPath, Row)] = []
    private var rowReloads: [(IndexPath, Row)] = []

    /// Fills the table once, after the first fetch (a table's `reloadData`).
    func load(from controller: NSFetchedResultsController<Team>) {
        sections = (controller.sections ?? []).map { info in
            Section(name: info.name, rows: (info.objects as? [Team] ?? []).map(Self.row(for:)))
        }
    }

    static func row(for team: Team) -> Row {
        Row(name: team.teamName ?? "?", wins: Int(team.wins))
    }

    var hasPendingLog: Bool { !log.isEmpty }

    func takeLog() -> [String] {
        defer { log = [] }
        return log
    }

    /// Applies one batch the way a table does: reloads and deletes at old index paths, then
    /// section and row inserts at new ones.
    private func applyBatch() {
        for (path, row) in rowReloads { sections[path.section].rows[path.item] = row }
        for path in rowDeletes.sorted(by: >) { sections[path.section].rows.remove(at: path.item) }
        for index in sectionDeletes.sorted(by: >) { sections.remove(at: index) }
        for (index, name) in sectionInserts.sorted(by: { $0.0 < $1.0 }) { sections.insert(Section(name: name, rows: []), at: index) }
        for (path, row) in rowInserts.sorted(by: { $0.0 < $1.0 }) { sections[path.section].rows.insert(row, at: path.item) }
        sectionDeletes = []
        sectionInserts = []
        rowDeletes = []
        rowInserts = []
        rowReloads = []
    }

    private static func word(_ type: NSFetchedResultsChangeType) -> String {
        switch type {
        case .insert: "insert"
        case .delete: "delete"
        case .move: "move"
        case .update: "update"
        @unknown default: "change"
        }
    }

    private static func text(_ path: IndexPath?) -> String {
        path.map { "[\($0.section), \($0.item)]" } ?? "-"
    }

    /// The table as text, one section header and one line per team.
    func render() -> String {
        sections.map { section in
            (["\(section.name) (\(section.rows.count))"] + section.rows.map {
                "  \($0.name.padding(toLength: 28, withPad: " ", startingAt: 0)) \($0.wins) win\($0.wins == 1 ? "" : "s")"
            }).joined(separator: "\n")
        }.joined(separator: "\n")
    }
}

/// The table follows its controller on the view context, whose changes arrive on the main queue.
extension TeamTable: @MainActor NSFetchedResultsControllerDelegate {
    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        log.append("controllerWillChangeContent")
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                    didChange sectionInfo: NSFetchedResultsSectionInfo, atSectionIndex sectionIndex: Int,
                    for type: NSFetchedResultsChangeType) {
        switch type {
        case .insert: sectionInserts.append((sectionIndex, sectionInfo.name))
        case .delete: sectionDeletes.append(sectionIndex)
        default: break
        }
        log.append("  section \(Self.word(type)) at \(sectionIndex): \(sectionInfo.name)")
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                    didChange anObject: Any, at indexPath: IndexPath?,
                    for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        guard let team = anObject as? Team, let indexPath = indexPath ?? newIndexPath else { return }
        let row = Self.row(for: team)
        switch type {
        case .insert: rowInserts.append((indexPath, row))
        case .delete: rowDeletes.append(indexPath)
        case .move:
            rowDeletes.append(indexPath)
            rowInserts.append((newIndexPath ?? indexPath, row))
        case .update: rowReloads.append((indexPath, row))
        @unknown default: break
        }
        let place = switch type {
        case .insert: Self.text(newIndexPath)
        case .move: "\(Self.text(indexPath)) -> \(Self.text(newIndexPath))"
        default: Self.text(indexPath)
        }
        log.append("  \(Self.word(type)) \(place): \(row.name) (\(row.wins) wins)")
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        applyBatch()
        log.append("controllerDidChangeContent")
    }
}
