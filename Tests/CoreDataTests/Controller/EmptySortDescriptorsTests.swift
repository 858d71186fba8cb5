import CoreData
import Foundation
import Testing

/// A controller accepts an empty, non-nil `sortDescriptors` array, as Apple's does, and keeps
/// its objects in the store's order.
@MainActor @Suite struct EmptySortDescriptorsTests {
    let directory = TemporaryDirectory()

    @Test func anEmptyArrayFetchesAndFollowsChangesInStoreOrder() throws {
        let container = try worldCupContainer(storeURL: directory.file("WorldCup.sqlite"))
        let context = container.viewContext
        let request = NSFetchRequest<WorldCupTeam>(entityName: "Team")
        request.sortDescriptors = []
        let controller = NSFetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        try controller.performFetch()
        let unsorted = NSFetchRequest<WorldCupTeam>(entityName: "Team")
        #expect(controller.fetchedObjects == (try context.fetch(unsorted)))
        #expect(controller.fetchedObjects?.count == ControllerModels.teams.count)

        let team = WorldCupTeam(context: context)
        team.teamName = "Atlantis"
        try context.save()
        #expect(controller.fetchedObjects?.last == team)
        #expect(controller.sections?.first?.numberOfObjects == ControllerModels.teams.count + 1)
    }
}
