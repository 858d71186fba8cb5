import CoreData
import Foundation
import Testing

/// Section info objects are live, as Apple's are: one handed out before a change reflects it
/// when read afterwards.
@MainActor @Suite struct LiveSectionInfoTests {
    let directory = TemporaryDirectory()

    @Test func aSectionInfoHeldAcrossAChangeCountsTheNewObjects() throws {
        let container = try worldCupContainer(storeURL: directory.file("WorldCup.sqlite"))
        let context = container.viewContext
        let controller = NSFetchedResultsController(
            fetchRequest: worldCupRequest(), managedObjectContext: context, sectionNameKeyPath: "qualifyingZone", cacheName: nil)
        try controller.performFetch()
        let africa = try #require(controller.sections?.first { $0.name == "Africa" })
        let before = africa.numberOfObjects

        let team = WorldCupTeam(context: context)
        team.teamName = "Atlantis"
        team.qualifyingZone = "Africa"
        team.wins = 0
        try context.save()

        #expect(africa.numberOfObjects == before + 1)
        #expect((africa.objects as? [WorldCupTeam])?.contains(team) == true)
    }

    @Test func aDeletedSectionsInfoListsNoObjects() throws {
        let container = try worldCupContainer(storeURL: directory.file("WorldCup.sqlite"))
        let context = container.viewContext
        let controller = NSFetchedResultsController(
            fetchRequest: worldCupRequest(), managedObjectContext: context, sectionNameKeyPath: "qualifyingZone", cacheName: nil)
        try controller.performFetch()
        let asia = try #require(controller.sections?.first { $0.name == "Asia" })
        let teams = try #require(asia.objects as? [WorldCupTeam])
        #expect(!teams.isEmpty)

        teams.forEach(context.delete)
        try context.save()

        #expect(asia.numberOfObjects == 0)
        #expect(asia.objects?.isEmpty == true)
        #expect(controller.sections?.contains { $0.name == "Asia" } == false)
    }
}
