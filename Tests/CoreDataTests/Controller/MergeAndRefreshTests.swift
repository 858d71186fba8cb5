@testable import CoreData
import Foundation
import Testing

/// Changes arriving from elsewhere: remote-save merges (as after batch requests) and
/// `refreshAllObjects()` / `reset()`, whose scope the controller does not know.
@MainActor @Suite struct MergeAndRefreshTests {
    let container: NSPersistentContainer
    var context: NSManagedObjectContext { container.viewContext }
    let controller: NSFetchedResultsController<WorldCupTeam>
    let recorder = TableRecorder()

    init() throws {
        container = try worldCupContainer()
        controller = NSFetchedResultsController(
            fetchRequest: worldCupRequest(), managedObjectContext: container.viewContext,
            sectionNameKeyPath: "qualifyingZone", cacheName: nil)
        try controller.performFetch()
        recorder.reset(from: controller)
        controller.delegate = recorder
    }

    /// Gives Brazil `wins` in a background context and saves there; returns Brazil's ID.
    func saveBrazilWins(_ wins: Int32) throws -> NSManagedObjectID {
        let background = container.newBackgroundContext()
        return try background.performAndWait {
            let teams = try background.fetch(NSFetchRequest<WorldCupTeam>(entityName: "Team"))
            let brazil = try #require(teams.first { $0.teamName == "Brazil" })
            brazil.wins = wins
            try background.save()
            return brazil.objectID
        }
    }

    @Test func aRemoteSaveMergeMovesTheChangedTeam() throws {
        let brazil = try saveBrazilWins(5)
        #expect(recorder.batches == 0, "nothing merged yet")
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectIDsKey: [brazil]], into: [context])
        #expect(recorder.log == ["will", "object move [4, 1] [4, 0]", "did"])
        #expect(recorder.replayFailures.isEmpty)
        #expect(recorder.table == TableRecorder.table(of: controller))
    }

    @Test func refreshAllObjectsRefetchesAndDiffs() throws {
        _ = try saveBrazilWins(5)
        context.refreshAllObjects()
        #expect(controller.object(at: IndexPath(row: 0, section: 4)).teamName == "Brazil")
        // Brazil and Argentina swapped; every object was refreshed, so either may be the move.
        let moves = recorder.objectChanges.filter { $0.type == .move }
        #expect(moves.count == 1)
        let moved = Set(moves.compactMap { ($0.object as? WorldCupTeam)?.teamName })
        #expect(moved.isSubset(of: ["Argentina", "Brazil"]))
        #expect(recorder.replayFailures.isEmpty)
        #expect(recorder.table == TableRecorder.table(of: controller))
    }

    @Test func resetLeavesTheControllerConsistentWithAFreshFetch() throws {
        context.reset()
        #expect(recorder.replayFailures.isEmpty)
        #expect(recorder.table == TableRecorder.table(of: controller))
        let fresh = try context.fetch(worldCupRequest())
        #expect(controller.fetchedObjects?.map(\.objectID) == fresh.map(\.objectID))
    }

    // MARK: Batch requests bypass the context; merging their object IDs brings the controller along.

    @Test func aMergedBatchUpdateMovesTheUpdatedTeam() throws {
        let update = NSBatchUpdateRequest(entityName: "Team")
        update.predicate = NSPredicate(format: "teamName == %@", "Japan")
        update.propertiesToUpdate = ["wins": 6]
        update.resultType = .updatedObjectIDsResultType
        let result = try context.execute(update) as? NSBatchUpdateResult
        let ids = try #require(result?.result as? [NSManagedObjectID])
        #expect(ids.count == 1)
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectsKey: ids], into: [context])
        #expect(recorder.log == ["will", "object move [1, 2] [1, 0]", "did"])
        #expect(controller.object(at: IndexPath(row: 0, section: 1)).teamName == "Japan")
    }

    @Test func aMergedBatchDeleteOfAZoneDeletesItsSection() throws {
        let delete = NSBatchDeleteRequest(fetchRequest: {
            let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Team")
            request.predicate = NSPredicate(format: "qualifyingZone == %@", "Asia")
            return request
        }())
        delete.resultType = .resultTypeObjectIDs
        let result = try context.execute(delete) as? NSBatchDeleteResult
        let ids = try #require(result?.result as? [NSManagedObjectID])
        #expect(ids.count == 4)
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: ids], into: [context])
        #expect(recorder.sectionChanges.map(\.type) == [.delete])
        #expect(recorder.sectionChanges.map(\.index) == [1])
        #expect(recorder.objectChanges.count == 4)
        #expect(controller.sections?.map(\.name).contains("Asia") == false)
        #expect(recorder.replayFailures.isEmpty)
        #expect(recorder.table == TableRecorder.table(of: controller))
    }
}
