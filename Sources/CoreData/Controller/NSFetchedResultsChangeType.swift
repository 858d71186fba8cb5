/// What happened to an object or a section in one change of a fetched results controller.
///
/// The raw values are Apple's, so code that stores or logs them reads the same on every
/// platform.
public enum NSFetchedResultsChangeType: UInt, Sendable {
    case insert = 1
    case delete = 2
    case move = 3
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
