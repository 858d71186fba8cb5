@testable import CoreData
import Foundation
import Testing

/// `cacheName`: reuse by an equal request, invalidation by anything that could make it wrong.
@MainActor @Suite struct SectionCacheTests {
    let directory = TemporaryDirectory()
    let cacheName = "worldCup-\(UUID().uuidString)"

    func controller(in context: NSManagedObjectContext, predicate: NSPredicate? = nil) throws -> NSFetchedResultsController<WorldCupTeam> {
        let request = worldCupRequest()
        request.predicate = predicate
        let controller = NSFetchedResultsController(
            fetchRequest: request, managedObjectContext: context,
            sectionNameKeyPath: "qualifyingZone", cacheName: cacheName)
        try controller.performFetch()
        return controller
    }

    var cacheFileExists: Bool {
        FileManager.default.fileExists(atPath: SectionCache.fileURL(named: cacheName).path)
    }

    @Test func anEqualRequestReusesTheCacheAndADifferentOneDoesNot() throws {
        defer { NSFetchedResultsController<WorldCupTeam>.deleteCache(withName: cacheName) }
        let container = try worldCupContainer(storeURL: directory.file("WorldCup.sqlite"))
        let first = try controller(in: container.viewContext)
        #expect(!first.state.loadedFromCache)
        #expect(cacheFileExists)

        let second = try controller(in: container.viewContext)
        #expect(second.state.loadedFromCache)
        #expect(second.sections?.map(\.name) == first.sections?.map(\.name))
        #expect(second.fetchedObjects?.map(\.objectID) == first.fetchedObjects?.map(\.objectID))

        let narrowed = try controller(in: container.viewContext, predicate: NSPredicate(format: "wins >= 0"))
        #expect(!narrowed.state.loadedFromCache, "a different predicate must not reuse the cache")
    }

    @Test func aWriteToTheStoreInvalidatesTheCache() throws {
        defer { NSFetchedResultsController<WorldCupTeam>.deleteCache(withName: cacheName) }
        let container = try worldCupContainer(storeURL: directory.file("WorldCup.sqlite"))
        _ = try controller(in: container.viewContext)
        let background = container.newBackgroundContext()
        try background.performAndWait {
            let team = NSEntityDescription.insertNewObject(forEntityName: "Team", into: background)
            team.setValue("Wenderland", forKey: "teamName")
            team.setValue("Internets", forKey: "qualifyingZone")
            try background.save()
        }
        let later = try controller(in: container.newBackgroundContext())
        #expect(!later.state.loadedFromCache)
        #expect(later.fetchedObjects?.count == 33)
    }

    @Test func aLiveControllerKeepsTheCacheCurrent() throws {
        defer { NSFetchedResultsController<WorldCupTeam>.deleteCache(withName: cacheName) }
        let container = try worldCupContainer(storeURL: directory.file("WorldCup.sqlite"))
        do {
            let live = try controller(in: container.viewContext)
            let chile = try #require(live.fetchedObjects?.first { $0.teamName == "Chile" })
            chile.wins = 7
            try container.viewContext.save()
            #expect(!cacheFileExists, "a changed controller drops its cache file at once")
        }
        #expect(cacheFileExists, "and writes it again when it goes away")
        let next = try controller(in: container.viewContext)
        #expect(next.state.loadedFromCache)
        let southAmerica = try #require(next.sections?.first { $0.name == "South America" })
        #expect((southAmerica.objects?.first as? WorldCupTeam)?.teamName == "Chile")
    }

    @Test func deleteCacheRemovesTheFile() throws {
        let container = try worldCupContainer(storeURL: directory.file("WorldCup.sqlite"))
        _ = try controller(in: container.viewContext)
        #expect(cacheFileExists)
        NSFetchedResultsController<NSFetchRequestResult>.deleteCache(withName: cacheName)
        #expect(!cacheFileExists)
    }
}
