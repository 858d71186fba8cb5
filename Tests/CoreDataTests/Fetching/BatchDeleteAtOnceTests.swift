@testable import CoreData
import Foundation
import Testing

/// A batch delete of rows nothing points at runs as one SQL statement (no keys read first),
/// with the same results as the key-by-key path: the matching rows go, the others stay, the
/// count is right, and a delete with rules to apply still takes the wave path.
@Suite struct BatchDeleteAtOnceTests {
    let directory = TemporaryDirectory()

    func venues(_ count: Int) throws -> NSPersistentContainer {
        let container = try makeContainer(model: BatchRequestTests.venueModel(), storeURL: directory.file("Venues.sqlite"))
        let insert = NSBatchInsertRequest(entityName: "Venue", objects: (0..<count).map { ["name": "Venue \($0)", "tips": $0] })
        _ = try container.newBackgroundContext().execute(insert)
        return container
    }

    func remainingTips(_ container: NSPersistentContainer) throws -> [Int] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Venue")
        request.sortDescriptors = [NSSortDescriptor(key: "tips", ascending: true)]
        let context = container.newBackgroundContext()
        return try context.performAndWait { try context.fetch(request).compactMap { $0.value(forKey: "tips") as? Int } }
    }

    @Test(.sqliteOnly("calls the SQLite store's own batchDeleteAtOnce"))
    func aFilteredDeleteOfUnreferencedRowsRunsAsOneStatementAndCounts() throws {
        let container = try venues(10)
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first as? SQLiteStore)
        var fetch = StoreFetch(entity: try #require(container.managedObjectModel.entitiesByName["Venue"]))
        fetch.predicate = NSPredicate(format: "tips >= 7")
        #expect(try store.batchDeleteAtOnce(fetch) == 3)
        #expect(try remainingTips(container) == Array(0..<7))

        let request = NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Venue"))
        request.resultType = .resultTypeCount
        let result = try container.newBackgroundContext().execute(request) as? NSBatchDeleteResult
        #expect(result?.result as? Int == 7)
        #expect(try remainingTips(container).isEmpty)
    }

    @Test func aPagedDeleteTakesOnlyItsPage() throws {
        let container = try venues(10)
        let fetchRequest = NSFetchRequest<NSFetchRequestResult>(entityName: "Venue")
        fetchRequest.sortDescriptors = [NSSortDescriptor(key: "tips", ascending: false)]
        fetchRequest.fetchLimit = 4
        let request = NSBatchDeleteRequest(fetchRequest: fetchRequest)
        request.resultType = .resultTypeCount
        let result = try container.newBackgroundContext().execute(request) as? NSBatchDeleteResult
        #expect(result?.result as? Int == 4)
        #expect(try remainingTips(container) == Array(0..<6))
    }

    @Test(.sqliteOnly("calls the SQLite store's own batchDeleteAtOnce"))
    func rowsAnotherEntityPointsAtAreLeftToTheRulePath() throws {
        let container = try makeContainer(model: TestModels.library(), storeURL: directory.file("Library.sqlite"))
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first as? SQLiteStore)
        let tags = StoreFetch(entity: try #require(container.managedObjectModel.entitiesByName["Tag"]))
        // Tags and items meet in a join table: deleting tags must clear it, key by key.
        #expect(try store.batchDeleteAtOnce(tags) == nil)
    }
}
