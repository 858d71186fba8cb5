import CoreData
import WorldCupStore

/// Collecting the controller's reports into one batch, sent when the batch ends.
extension LiveTable: NSFetchedResultsControllerDelegate {
    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        pending = ChangeBatch()
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                    didChange sectionInfo: NSFetchedResultsSectionInfo, atSectionIndex sectionIndex: Int,
                    for type: NSFetchedResultsChangeType) {
        pending.sections.append(.init(type: .init(type), index: sectionIndex, name: sectionInfo.name))
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
                    didChange anObject: Any, at indexPath: IndexPath?,
                    for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        let kind = ChangeBatch.ChangeKind(type)
        // A deleted object's values may already be gone; the page needs only its old place.
        let team = kind == .delete ? nil : (anObject as? Team).map(TableSnapshot.Row.init)
        pending.rows.append(.init(type: kind, from: indexPath.map(ChangeBatch.Place.init),
                                  to: newIndexPath.map(ChangeBatch.Place.init), team: team))
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        batchesSent += 1
        pending.number = batchesSent
        broadcast(.batch(pending))
        pending = ChangeBatch()
    }
}
