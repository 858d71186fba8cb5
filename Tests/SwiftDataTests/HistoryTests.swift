import Foundation
import SwiftData
import Testing

@Suite("History: fetchHistory and deleteHistory")
struct HistoryTests {
    @Test func insertsUpdatesAndDeletesAppearAsTransactionsAfterAToken() throws {
        let directory = TemporaryDirectory()
        let context = ModelContext(try directory.container(Trip.self, Stop.self))
        let trip = Trip(name: "Lyon")
        context.insert(trip)
        try context.save()
        let first = try #require(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last)
        guard case .insert(let insert) = try #require(first.changes.first) else {
            Issue.record("expected an insert, got \(first.changes)")
            return
        }
        #expect(insert.changedPersistentIdentifier == trip.persistentModelID)

        trip.nights = 4
        try context.save()
        context.delete(trip)
        try context.save()

        let token = try JSONDecoder().decode(DefaultHistoryToken.self, from: JSONEncoder().encode(first.token))
        let later = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > token }))
        #expect(later.count == 2)
        guard case .update(let update as DefaultHistoryUpdate<Trip>) = try #require(later.first?.changes.first) else {
            Issue.record("expected an update of a Trip, got \(later.first?.changes ?? [])")
            return
        }
        #expect(update.updatedAttributes == [\Trip.nights])
        guard case .delete(let delete) = try #require(later.last?.changes.first) else {
            Issue.record("expected a delete")
            return
        }
        #expect(delete.changedPersistentIdentifier == trip.persistentModelID)

        try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= token }))
        #expect(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).count == 2)
    }
}
