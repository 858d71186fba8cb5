/// Receives a fetched results controller's changes, with Apple's method names and signatures.
///
/// Every method is optional: the protocol extension supplies empty defaults. Methods receive the
/// controller as `NSFetchedResultsController<NSFetchRequestResult>`, as on Apple platforms, even
/// when it is declared with a concrete result type (see `NSFetchedResultsController`).
///
/// For example:
/// ```swift
/// extension ViewController: NSFetchedResultsControllerDelegate {
///     func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
///                     didChange anObject: Any, at indexPath: IndexPath?,
///                     for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
///         switch type {
///         case .insert: rows.insert(anObject, at: newIndexPath!)
///         ...
///         }
///     }
/// }
/// ```
///
/// A main-actor view controller conforms with an isolated conformance
/// (`extension ViewController: @MainActor NSFetchedResultsControllerDelegate`) and drives a
/// controller on the view context, whose changes are delivered on the main queue.
///
/// Delivery follows Apple's rules: a delegate implementing the snapshot form of
/// `controller(_:didChangeContentWith:)` receives only that; otherwise it receives
/// `controllerWillChangeContent`, the section changes, the object changes, the difference form
/// and `controllerDidChangeContent`. Linux has no `responds(to:)`, so the controller learns which
/// forms are implemented when the defaults below are called, once per delegate.
public protocol NSFetchedResultsControllerDelegate: AnyObject {
    /// Changes are about to be reported (begin a table's batch update here).
    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>)

    /// One object was inserted (`newIndexPath`), deleted (`indexPath`), moved (both) or updated
    /// (`indexPath`, the old place, with `newIndexPath` its place after the change).
    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>,
        didChange anObject: Any, at indexPath: IndexPath?,
        for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?)

    /// A section was inserted (new index) or deleted (old index). Reported before object changes.
    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>,
        didChange sectionInfo: NSFetchedResultsSectionInfo, atSectionIndex sectionIndex: Int,
        for type: NSFetchedResultsChangeType)

    /// All changes of this batch were reported (end the table's batch update here).
    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>)

    /// The index title for a section; the default is the name's capitalized first letter.
    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>,
        sectionIndexTitleForSectionName sectionName: String) -> String?

    /// The change as a difference of the flat list of object IDs.
    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>,
        didChangeContentWith diff: CollectionDifference<NSManagedObjectID>)

    /// The content after the change; also called once after `performFetch()`.
    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>,
        didChangeContentWith snapshot: NSDiffableDataSourceSnapshotReference)
}

extension NSFetchedResultsControllerDelegate {
    /// Does nothing.
    public func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {}

    /// Does nothing.
    public func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>,
        didChange anObject: Any, at indexPath: IndexPath?,
        for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?
    ) {}

    /// Does nothing.
    public func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>,
        didChange sectionInfo: NSFetchedResultsSectionInfo, atSectionIndex sectionIndex: Int,
        for type: NSFetchedResultsChangeType
    ) {}

    /// Does nothing.
    public func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {}

    /// The section name's first character, uppercased; nil for an empty name.
    public func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>,
        sectionIndexTitleForSectionName sectionName: String
    ) -> String? {
        sectionName.first.map { String($0).uppercased() }
    }

    /// Tells the controller this delegate lacks the difference form, so none is computed again.
    public func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>,
        didChangeContentWith diff: CollectionDifference<NSManagedObjectID>
    ) {
        // Not implemented by this delegate: stop computing differences for it.
        controller.state.delegateForms.remove(.difference)
    }

    /// Tells the controller this delegate lacks the snapshot form, so it gets the per-object callbacks.
    public func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>,
        didChangeContentWith snapshot: NSDiffableDataSourceSnapshotReference
    ) {
        // Not implemented by this delegate: deliver the per-object callbacks instead.
        controller.state.delegateForms.remove(.snapshot)
    }
}
