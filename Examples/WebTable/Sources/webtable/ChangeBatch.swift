import CoreData
import WorldCupStore

/// The controller's reports between `controllerWillChangeContent` and
/// `controllerDidChangeContent`, as they came: one message to every page.
///
/// The reports are sent unchanged (a move stays a move, with both index paths) so that the page
/// applies exactly what a `UITableView` would be handed; `Page/table.js` orders them.
struct ChangeBatch: Encodable, Sendable {
    /// A place in the table: old index space for deletes, new for inserts.
    struct Place: Encodable, Sendable {
        var section: Int
        var row: Int

        init(_ indexPath: IndexPath) {
            section = indexPath.section
            row = indexPath.item
        }
    }

    struct SectionChange: Encodable, Sendable {
        var type: ChangeKind
        var index: Int
        var name: String
    }

    struct RowChange: Encodable, Sendable {
        var type: ChangeKind
        /// Where the row was: for deletes, moves and updates.
        var from: Place?
        /// Where the row is now: for inserts, moves and updates.
        var to: Place?
        /// What the row shows now; absent for a delete.
        var team: TableSnapshot.Row?
    }

    /// `NSFetchedResultsChangeType` by name, as the page reads it.
    enum ChangeKind: String, Encodable, Sendable {
        case insert, delete, move, update

        init(_ type: NSFetchedResultsChangeType) {
            switch type {
            case .insert: self = .insert
            case .delete: self = .delete
            case .move: self = .move
            default: self = .update
            }
        }
    }

    /// Counts the batches the server has sent, from 1.
    var number = 0
    var sections: [SectionChange] = []
    var rows: [RowChange] = []
}
