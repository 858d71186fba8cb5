/// The reports one change produces, shaped for a table's batch update (DESIGN.md §7).
///
/// Section deletions and row deletions use old addresses; section insertions and row
/// insertions use new addresses; a move goes old → new; an update names the old address (and
/// carries the new one for delegates that want it). Every object appears at most once.
struct ChangeBatch<ID: Hashable> {
    /// The four report kinds, numbered as Apple's `NSFetchedResultsChangeType`.
    enum Kind: UInt8, Sendable {
        case insert = 1
        case delete = 2
        case move = 3
        case update = 4
    }

    /// A section appearing or disappearing.
    struct SectionChange: Equatable {
        var kind: Kind
        /// Old index for a deletion, new index for an insertion.
        var index: Int
        var name: String
    }

    /// One object's report.
    struct ObjectChange {
        var id: ID
        var kind: Kind
        /// Set for delete, move and update. For an insert it is set only when the row left a
        /// section this batch deletes: the table drops it with the section, but the flat
        /// summary difference still needs its old place.
        var oldAddress: RowAddress?
        /// Set for insert, move and update.
        var newAddress: RowAddress?
        /// Whether the object's content changed (an updated or moved row needs redrawing).
        var contentChanged: Bool
    }

    var sectionChanges: [SectionChange] = []
    var objectChanges: [ObjectChange] = []

    var isEmpty: Bool { sectionChanges.isEmpty && objectChanges.isEmpty }

    /// Puts reports in delivery order: section deletions (descending), section insertions
    /// (ascending), then row deletions (descending), insertions (ascending), moves, updates.
    ///
    /// A table accepts any order inside one batch; this order also lets a naive client apply
    /// deletions and insertions one by one to plain arrays.
    mutating func sortForDelivery() {
        sectionChanges.sort { lhs, rhs in
            if lhs.kind != rhs.kind { return lhs.kind == .delete }
            return lhs.kind == .delete ? lhs.index > rhs.index : lhs.index < rhs.index
        }
        func rank(_ kind: Kind) -> Int {
            switch kind {
            case .delete: 0
            case .insert: 1
            case .move: 2
            case .update: 3
            }
        }
        objectChanges.sort { lhs, rhs in
            if lhs.kind != rhs.kind { return rank(lhs.kind) < rank(rhs.kind) }
            switch lhs.kind {
            case .delete: return lhs.oldAddress! > rhs.oldAddress!
            case .insert: return lhs.newAddress! < rhs.newAddress!
            case .move, .update: return lhs.oldAddress! < rhs.oldAddress!
            }
        }
    }
}
