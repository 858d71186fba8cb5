@testable import CoreData
import Foundation
import Testing

/// The World Cup chapter (Core Data by Tutorials, ch. 5) driven through the public API.
@MainActor @Suite struct WorldCupControllerTests {
    let container: NSPersistentContainer
    var context: NSManagedObjectContext { container.viewContext }

    init() throws {
        container = try worldCupContainer()
    }

    func zonesController(cacheName: String? = nil) throws -> NSFetchedResultsController<WorldCupTeam> {
        let controller = NSFetchedResultsController(
            fetchRequest: worldCupRequest(), managedObjectContext: context,
            sectionNameKeyPath: "qualifyingZone", cacheName: cacheName)
        try controller.performFetch()
        return controller
    }

    func team(_ name: String, in controller: NSFetchedResultsController<WorldCupTeam>) throws -> WorldCupTeam {
        try #require(controller.fetchedObjects?.first { $0.teamName == name })
    }

    @Test func alphabeticalListIsOneSectionOfThirtyTwoTeams() throws {
        let request = NSFetchRequest<WorldCupTeam>(entityName: "Team")
        request.sortDescriptors = [NSSortDescriptor(key: "teamName", ascending: true)]
        let controller = NSFetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        #expect(controller.fetchedObjects == nil)
        try controller.performFetch()
        #expect(controller.sections?.count == 1)
        #expect(controller.sections?[0].numberOfObjects == 32)
        #expect(controller.fetchedObjects?.map(\.teamName) == ControllerModels.teams.map(\.name).sorted())
        #expect(controller.object(at: IndexPath(row: 0, section: 0)).teamName == "Algeria")
        let uruguay = try #require(controller.fetchedObjects?.last)
        #expect(controller.indexPath(forObject: uruguay) == IndexPath(row: 31, section: 0))
    }

    @Test(arguments: [0, 5])
    func sectionsComeFromFetchedRowsWithoutFiringFaults(batchSize: Int) throws {
        let fresh = container.newBackgroundContext()
        let (faults, sections) = try fresh.performAndWait {
            let request = worldCupRequest()
            request.fetchBatchSize = batchSize
            let controller = NSFetchedResultsController(
                fetchRequest: request, managedObjectContext: fresh, sectionNameKeyPath: "qualifyingZone", cacheName: nil)
            try controller.performFetch()
            let faults = controller.fetchedObjects?.filter(\.isFault).count
            let sections = controller.sections?.map { "\($0.name):\($0.numberOfObjects)" }
            return (faults, sections)
        }
        #expect(faults == 32, "reading sort keys and section names left every object a fault")
        let zones = Dictionary(grouping: ControllerModels.teams, by: \.zone).mapValues(\.count)
        #expect(sections == zones.keys.sorted().map { "\($0):\(zones[$0]!)" })
    }

    @Test func fetchWithoutSortDescriptorsThrowsAClearError() throws {
        let controller = NSFetchedResultsController(
            fetchRequest: NSFetchRequest<WorldCupTeam>(entityName: "Team"), managedObjectContext: context,
            sectionNameKeyPath: nil, cacheName: nil)
        let error = try #require(throws: NSError.self) { try controller.performFetch() }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.localizedDescription.contains("sort descriptors"))
        #expect(controller.fetchedObjects == nil)
    }

    @Test func sectionsFollowTheQualifyingZones() throws {
        let controller = try zonesController()
        let zones = Array(Set(ControllerModels.teams.map(\.zone))).sorted()
        #expect(controller.sections?.map(\.name) == zones)
        for (index, zone) in zones.enumerated() {
            let names = (controller.sections?[index].objects as? [WorldCupTeam])?.map(\.teamName)
            #expect(names == ControllerModels.teams.filter { $0.zone == zone }.map(\.name).sorted())
        }
        #expect(controller.sectionIndexTitles == ["A", "E", "N", "S"])
        #expect(controller.section(forSectionIndexTitle: "E", at: 1) == 2)
    }

    @Test func tappingATeamMovesItToTheTopOfItsZone() throws {
        let controller = try zonesController()
        let recorder = TableRecorder()
        recorder.reset(from: controller)
        controller.delegate = recorder
        let ghana = try team("Ghana", in: controller)
        #expect(controller.indexPath(forObject: ghana) == IndexPath(row: 2, section: 0))
        ghana.wins += 1
        try context.save()
        #expect(recorder.log == ["will", "object move [0, 2] [0, 0]", "did"])
        #expect(controller.indexPath(forObject: ghana) == IndexPath(row: 0, section: 0))
        #expect(recorder.replayFailures.isEmpty)
        #expect(recorder.table == TableRecorder.table(of: controller))
    }

    @Test func tappingTheLeaderIsAnUpdateInPlace() throws {
        let controller = try zonesController()
        let recorder = TableRecorder()
        controller.delegate = recorder
        let algeria = try team("Algeria", in: controller)
        algeria.wins += 1
        try context.save()
        #expect(recorder.log == ["will", "object update [0, 0] [0, 0]", "did"])
    }

    @Test func newTeamInANewZoneInsertsASectionThenARow() throws {
        let controller = try zonesController()
        let recorder = TableRecorder()
        recorder.reset(from: controller)
        controller.delegate = recorder
        let wenderland = WorldCupTeam(context: context)
        wenderland.teamName = "Wenderland"
        wenderland.qualifyingZone = "Internets"
        wenderland.imageName = "wenderland-flag"
        try context.save()
        #expect(recorder.log == ["will", "section insert 3 Internets", "object insert - [3, 0]", "did"])
        #expect(controller.sections?.map(\.name).contains("Internets") == true)
        #expect(recorder.table == TableRecorder.table(of: controller))

        // Deleting the zone's last team deletes its section again.
        context.delete(wenderland)
        try context.save()
        #expect(recorder.sectionChanges.map(\.type) == [.delete])
        #expect(recorder.sectionChanges.map(\.index) == [3])
        #expect(controller.sections?.count == 5)
        #expect(recorder.replayFailures.isEmpty)
        #expect(recorder.table == TableRecorder.table(of: controller))
    }

    @Test func aBackgroundSaveReachesTheViewContextsController() async throws {
        context.automaticallyMergesChangesFromParent = true
        let controller = try zonesController()
        let recorder = TableRecorder()
        recorder.reset(from: controller)
        controller.delegate = recorder
        let background = container.newBackgroundContext()
        try background.performAndWait {
            let teams = try background.fetch(NSFetchRequest<WorldCupTeam>(entityName: "Team"))
            let uruguay = try #require(teams.first { $0.teamName == "Uruguay" })
            uruguay.wins = 3
            try background.save()
        }
        for _ in 0..<300 where recorder.batches == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(recorder.log == ["will", "object move [4, 5] [4, 0]", "did"])
        #expect(controller.object(at: IndexPath(row: 0, section: 4)).teamName == "Uruguay")
        #expect(recorder.table == TableRecorder.table(of: controller))
    }

    @Test func fetchLimitKeepsTheWindowFilled() throws {
        let request = NSFetchRequest<WorldCupTeam>(entityName: "Team")
        request.sortDescriptors = [NSSortDescriptor(key: "wins", ascending: false), NSSortDescriptor(key: "teamName", ascending: true)]
        request.fetchLimit = 3
        let controller = NSFetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        try controller.performFetch()
        #expect(controller.fetchedObjects?.map(\.teamName) == ["Algeria", "Argentina", "Australia"])
        let recorder = TableRecorder()
        recorder.reset(from: controller)
        controller.delegate = recorder
        let teams = try context.fetch(NSFetchRequest<WorldCupTeam>(entityName: "Team"))
        let uruguay = try #require(teams.first { $0.teamName == "Uruguay" })
        uruguay.wins = 2
        try context.save()
        #expect(controller.fetchedObjects?.map(\.teamName) == ["Uruguay", "Algeria", "Argentina"])
        #expect(Set(recorder.objectChanges.map(\.type)) == [.insert, .delete])
        #expect(recorder.objectChanges.first { $0.type == .delete }?.at == IndexPath(row: 2, section: 0))
        #expect(recorder.objectChanges.first { $0.type == .insert }?.new == IndexPath(row: 0, section: 0))
        #expect(recorder.table == TableRecorder.table(of: controller))
    }

    @Test func bookDelegateSignaturesAreCalledForATypedController() throws {
        let controller = try zonesController()
        let recorder = TableRecorder()
        controller.delegate = recorder
        #expect(controller.delegate === recorder)
        try team("Chile", in: controller).imageName = "chile"
        try context.save()
        #expect(recorder.objectChanges.count == 1)
        #expect((recorder.objectChanges.first?.object as? WorldCupTeam)?.teamName == "Chile")
    }
}

/// The controller's types as Apple code spells them.
@MainActor @Suite struct ControllerTypingTests {
    let container: NSPersistentContainer

    init() throws {
        container = try worldCupContainer()
    }

    final class IdentityDelegate: NSFetchedResultsControllerDelegate {
        var received: [NSFetchedResultsController<NSFetchRequestResult>] = []
        func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
            received.append(controller)
        }
    }

    @Test func anUntypedControllerHandsItselfToTheDelegate() throws {
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Team")
        request.sortDescriptors = [NSSortDescriptor(key: "teamName", ascending: true)]
        let controller = NSFetchedResultsController(
            fetchRequest: request, managedObjectContext: container.viewContext, sectionNameKeyPath: nil, cacheName: nil)
        let delegate = IdentityDelegate()
        controller.delegate = delegate
        try controller.performFetch()
        let first = try #require(controller.fetchedObjects?.first as? WorldCupTeam)
        #expect(first.teamName == "Algeria")
        first.wins = 1
        container.viewContext.processPendingChanges()
        #expect(delegate.received.count == 1)
        #expect(delegate.received.first === controller)
    }

    @Test func aTypedControllerHandsAnEqualViewToTheDelegate() throws {
        let controller = NSFetchedResultsController(
            fetchRequest: worldCupRequest(), managedObjectContext: container.viewContext,
            sectionNameKeyPath: "qualifyingZone", cacheName: nil)
        let delegate = IdentityDelegate()
        controller.delegate = delegate
        try controller.performFetch()
        controller.fetchedObjects?.first?.wins = 3
        container.viewContext.processPendingChanges()
        let received = try #require(delegate.received.first)
        #expect(received == controller)
        #expect(received.object(at: IndexPath(row: 0, section: 0)) is WorldCupTeam)
        #expect(received.fetchRequest.sortDescriptors?.count == 3)
        #expect(received.sections?.count == controller.sections?.count)
    }

    @Test func theRequestCanChangeBetweenFetches() throws {
        let controller = NSFetchedResultsController(
            fetchRequest: worldCupRequest(), managedObjectContext: container.viewContext,
            sectionNameKeyPath: nil, cacheName: nil)
        try controller.performFetch()
        #expect(controller.fetchedObjects?.first?.teamName == "Algeria")
        let reversed = NSFetchRequest<WorldCupTeam>(entityName: "Team")
        reversed.sortDescriptors = [NSSortDescriptor(key: "teamName", ascending: false)]
        controller.fetchRequest = reversed
        try controller.performFetch()
        #expect(controller.fetchedObjects?.first?.teamName == "Uruguay")
        #expect(controller.sections?.count == 1)
    }
}

/// Section index titles through the delegate.
@MainActor @Suite struct SectionIndexTitleTests {
    final class ZoneInitials: NSFetchedResultsControllerDelegate {
        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, sectionIndexTitleForSectionName sectionName: String) -> String? {
            String(sectionName.split(separator: " ").compactMap(\.first))
        }
    }

    @Test func theDelegateNamesTheIndexTitles() throws {
        let container = try worldCupContainer()
        let controller = NSFetchedResultsController(
            fetchRequest: worldCupRequest(), managedObjectContext: container.viewContext,
            sectionNameKeyPath: "qualifyingZone", cacheName: nil)
        try controller.performFetch()
        #expect(controller.sectionIndexTitles == ["A", "E", "N", "S"])
        let delegate = ZoneInitials()
        controller.delegate = delegate
        #expect(controller.sectionIndexTitles == ["A", "E", "NCA&C", "SA"])
        #expect(controller.sectionIndexTitle(forSectionName: "South America") == "SA")
        #expect(controller.section(forSectionIndexTitle: "SA", at: 3) == 4)
    }
}
