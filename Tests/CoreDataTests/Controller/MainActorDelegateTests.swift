@testable import CoreData
import Foundation
import Testing

/// A main-actor view controller, as apps write them, conforming with an isolated conformance.
@MainActor final class ScoreboardViewController {
    var rowsReloaded = 0
    var controller: NSFetchedResultsController<WorldCupTeam>?
}

extension ScoreboardViewController: @MainActor NSFetchedResultsControllerDelegate {
    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        rowsReloaded += 1
    }
}

@MainActor @Suite struct MainActorDelegateTests {
    @Test func aMainActorViewControllerCanBeTheDelegateOfAViewContextController() throws {
        let container = try worldCupContainer()
        let screen = ScoreboardViewController()
        let controller = NSFetchedResultsController(
            fetchRequest: worldCupRequest(), managedObjectContext: container.viewContext,
            sectionNameKeyPath: "qualifyingZone", cacheName: nil)
        controller.delegate = screen
        screen.controller = controller
        try controller.performFetch()
        controller.fetchedObjects?.first?.wins = 2
        try container.viewContext.save()
        #expect(screen.rowsReloaded == 1)
    }
}
