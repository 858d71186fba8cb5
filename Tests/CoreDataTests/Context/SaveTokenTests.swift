import CoreData
import Foundation
import Testing

/// The did-save notifications carry the history token and the query-generation token under
/// Apple's keys when they apply, and not otherwise.
@Suite struct SaveTokenTests {
    let directory = TemporaryDirectory()

    func saveEntry(_ title: String, in context: NSManagedObjectContext) throws {
        try context.performAndWait {
            LedgerEntry(context: context).title = title
            try context.save()
        }
    }

    @Test func aTrackedStoreGivesTheHistoryTokenOfTheSave() throws {
        let container = try LedgerModel.container(in: directory, options: [NSPersistentHistoryTrackingKey: true as NSNumber])
        let context = container.newBackgroundContext()
        let saved = Observation(name: .NSManagedObjectContextDidSave, object: context)
        let savedIDs = Observation(name: .NSManagedObjectContextDidSaveObjectIDs, object: context)
        try saveEntry("First", in: context)
        try saveEntry("Second", in: context)

        let tokens = try saved.received.map { try #require($0.userInfo?[NSPersistentHistoryTokenKey] as? NSPersistentHistoryToken) }
        #expect(tokens.count == 2 && tokens[0] < tokens[1])
        #expect(savedIDs.received.last?.userInfo?[NSPersistentHistoryTokenKey] as? NSPersistentHistoryToken == tokens[1])
        // The token names the save's own transaction: history after the first holds the second alone.
        let history = try context.performAndWait {
            try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: tokens[0])) as? NSPersistentHistoryResult
        }
        let transactions = try #require(history?.result as? [NSPersistentHistoryTransaction])
        #expect(transactions.map(\.token) == [tokens[1]])
        #expect(saved.received.allSatisfy { $0.userInfo?[NSManagedObjectContextQueryGenerationKey] == nil })
    }

    @Test func aContextPinnedToGenerationsGetsTheGenerationAfterItsSave() throws {
        let container = try LedgerModel.container(in: directory)
        let context = container.newBackgroundContext()
        try context.setQueryGenerationFrom(.current)
        let saved = Observation(name: .NSManagedObjectContextDidSave, object: context)
        try saveEntry("First", in: context)

        let userInfo = try #require(saved.received.first?.userInfo)
        let generation = try #require(userInfo[NSManagedObjectContext.NotificationKey.queryGeneration.rawValue] as? NSQueryGenerationToken)
        #expect(generation != .current)
        #expect(context.queryGenerationToken == generation)
        #expect(userInfo[NSPersistentHistoryTokenKey] == nil, "the store does not track history")
    }

    @Test func anUnpinnedContextOnAnUntrackedStoreGetsNoTokens() throws {
        let container = try LedgerModel.container(in: directory)
        let context = container.newBackgroundContext()
        let saved = Observation(name: .NSManagedObjectContextDidSave, object: context)
        try saveEntry("First", in: context)
        let userInfo = try #require(saved.received.first?.userInfo)
        #expect(userInfo[NSPersistentHistoryTokenKey] == nil && userInfo[NSManagedObjectContextQueryGenerationKey] == nil)
    }
}
