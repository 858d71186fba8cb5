/// One change of a controller's content, as the `changes` sequence yields it: everything a
/// Swift-concurrency consumer needs, in `Sendable` values it can take to any actor.
public struct FetchedResultsChange: Sendable {
    /// The content after the change.
    public var snapshot: NSDiffableDataSourceSnapshotReference
    /// From the previous content's flat object IDs to the new ones.
    public var difference: CollectionDifference<NSManagedObjectID>
}
