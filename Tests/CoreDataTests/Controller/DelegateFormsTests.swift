@testable import CoreData
import Foundation
import Testing

/// The summary forms: snapshot, difference, and the `changes` sequence.
@MainActor @Suite struct DelegateFormsTests {
    let container: NSPersistentContainer
    var context: NSManagedObjectContext { container.viewContext }

    init() throws {
        container = try worldCupContainer()
    }

    final class SnapshotDelegate: NSFetchedResultsControllerDelegate {
        var snapshots: [NSDiffableDataSourceSnapshotReference] = []
        var perObjectCalls = 0

        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChangeContentWith snapshot: NSDiffableDataSourceSnapshotReference) {
            snapshots.append(snapshot)
        }

        func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
            perObjectCalls += 1
        }
    }

    final class DifferenceDelegate: NSFetchedResultsControllerDelegate {
        var differences: [CollectionDifference<NSManagedObjectID>] = []
        var log: [String] = []

        func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) { log.append("will") }
        func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) { log.append("did") }
        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChangeContentWith diff: CollectionDifference<NSManagedObjectID>) {
            log.append("difference")
            differences.append(diff)
        }
    }

    func controller() -> NSFetchedResultsController<WorldCupTeam> {
        NSFetchedResultsController(
            fetchRequest: worldCupRequest(), managedObjectContext: context,
            sectionNameKeyPath: "qualifyingZone", cacheName: nil)
    }

    @Test func snapshotDelegateGetsTheContentAfterFetchAndAfterEachChangeOnly() throws {
        let controller = controller()
        let delegate = SnapshotDelegate()
        controller.delegate = delegate
        try controller.performFetch()
        #expect(delegate.snapshots.count == 1)
        #expect(delegate.snapshots[0].numberOfSections == 5)
        #expect(delegate.snapshots[0].numberOfItems == 32)
        let ghana = try #require(controller.fetchedObjects?.first { $0.teamName == "Ghana" })
        ghana.wins = 4
        try context.save()
        #expect(delegate.snapshots.count == 2)
        let africa = delegate.snapshots[1].itemIdentifiers(inSection: "Africa")
        #expect(africa.first == ghana.objectID)
        #expect(delegate.snapshots[1].reloadedItemIdentifiers == [ghana.objectID])
        #expect(delegate.perObjectCalls == 0, "the snapshot form replaces the per-object callbacks")
    }

    @Test func differenceTurnsTheOldObjectIDsIntoTheNewOnes() throws {
        let controller = controller()
        try controller.performFetch()
        let delegate = DifferenceDelegate()
        controller.delegate = delegate
        let before = controller.fetchedObjects!.map(\.objectID)
        let teams = controller.fetchedObjects!
        teams[7].wins = 2
        teams[20].qualifyingZone = "Africa"
        context.delete(teams[3])
        try context.save()
        #expect(delegate.log == ["will", "difference", "did"])
        let after = controller.fetchedObjects!.map(\.objectID)
        #expect(before.applying(try #require(delegate.differences.first)) == after)
    }

    @Test func changesSequenceYieldsSnapshotsAndDifferences() async throws {
        let controller = controller()
        try await controller.performFetchAsync()
        #expect(controller.fetchedObjects?.count == 32)
        let changes = controller.changes
        let before = controller.fetchedObjects!.map(\.objectID)
        let brazil = try #require(controller.fetchedObjects?.first { $0.teamName == "Brazil" })
        brazil.wins = 9
        try context.save()
        var iterator = changes.makeAsyncIterator()
        let change = try #require(await iterator.next())
        #expect(before.applying(change.difference) == change.snapshot.itemIdentifiers)
        #expect(change.snapshot.itemIdentifiers(inSection: "South America").first == brazil.objectID)
    }
}
