/// What happened to an object or a section in one change of a fetched results controller.
///
/// The raw values are Apple's, so code that stores or logs them reads the same on every
/// platform.
public enum NSFetchedResultsChangeType: UInt, Sendable {
    /// A new row or section; reported at its new index.
    case insert = 1
    /// A row or section that left; reported at its old index.
    case delete = 2
    /// A row that changed place: deleted at its old index path and inserted at the new one.
    case move = 3
    /// A row whose content changed in place; reload it at its old index path.
    case update = 4
}

extension NSFetchedResultsChangeType {
    init(_ kind: ChangeBatch<ResultIdentity>.Kind) {
        switch kind {
        case .insert: self = .insert
        case .delete: self = .delete
        case .move: self = .move
        case .update: self = .update
        }
    }
}
