import Foundation
import SwiftData
import Testing

@Suite("ModelContext")
struct ContextTests {
    @Test func saveRollbackAndChangeArrays() throws {
        let directory = TemporaryDirectory()
        let context = ModelContext(try directory.container(Trip.self, Stop.self))
        #expect(!context.hasChanges)
        let kept = Trip(name: "Kept")
        context.insert(kept)
        #expect(context.hasChanges)
        try context.save()
        #expect(!context.hasChanges)

        kept.nights = 9
        #expect(context.changedModelsArray.count == 1)
        context.insert(Trip(name: "Dropped"))
        #expect(context.insertedModelsArray.count == 1)
        context.rollback()
        #expect(!context.hasChanges)
        #expect(kept.nights == 1)
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 1)

        context.delete(kept)
        #expect(context.deletedModelsArray.count == 1)
        try context.save()
        #expect(try directory.sqlite("SELECT COUNT(*) FROM ZTRIP") == ["0"])
    }

    @Test func transactionSavesOrRollsBack() throws {
        let directory = TemporaryDirectory()
        let context = ModelContext(try directory.container(Trip.self, Stop.self))
        try context.transaction { context.insert(Trip(name: "A")) }
        #expect(!context.hasChanges)
        #expect(try directory.sqlite("SELECT ZNAME FROM ZTRIP") == ["A"])
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try context.transaction {
                context.insert(Trip(name: "B"))
                throw Failure()
            }
        }
        #expect(!context.hasChanges)
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 1)
    }

    @Test func deleteModelWhereDeletesMatchingModelsAtSave() throws {
        let directory = TemporaryDirectory()
        let context = ModelContext(try directory.container(Trip.self, Stop.self))
        for (name, nights) in [("A", 1), ("B", 5), ("C", 7)] { context.insert(Trip(name: name, nights: nights)) }
        try context.save()
        try context.delete(model: Trip.self, where: #Predicate { $0.nights > 2 })
        #expect(context.deletedModelsArray.count == 2)
        try context.save()
        #expect(try directory.sqlite("SELECT ZNAME FROM ZTRIP") == ["A"])
        try context.delete(model: Trip.self)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 0)
    }

    @Test func willSaveAndDidSaveCarryTheSavedIdentifiers() throws {
        let directory = TemporaryDirectory()
        let context = ModelContext(try directory.container(Trip.self, Stop.self))
        let old = Trip(name: "Old")
        context.insert(old)
        try context.save()
        let oldID = old.persistentModelID

        let willSave = Counter()
        let saved = Box<[String: Any]>()
        let observers = [
            NotificationCenter.default.addObserver(forName: ModelContext.willSave, object: context, queue: nil) { _ in willSave.value += 1 },
            NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) { saved.value = $0.userInfo as? [String: Any] },
        ]
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        let new = Trip(name: "New")
        context.insert(new)
        old.nights = 2
        try context.save()
        #expect(willSave.value == 1)
        let userInfo = try #require(saved.value)
        #expect(userInfo[ModelContext.NotificationKey.insertedIdentifiers.rawValue] as? [PersistentIdentifier] == [new.persistentModelID])
        #expect(userInfo[ModelContext.NotificationKey.updatedIdentifiers.rawValue] as? [PersistentIdentifier] == [oldID])

        context.delete(old)
        try context.save()
        #expect(userInfo.isEmpty == false)
        #expect(saved.value?[ModelContext.NotificationKey.deletedIdentifiers.rawValue] as? [PersistentIdentifier] == [oldID])
    }

    @Test func aStoreThatDoesNotAllowSavesThrowsAndPostsNoDidSave() throws {
        let directory = TemporaryDirectory()
        _ = try directory.containerWithSavedTrip(named: "Saved", nights: 1)
        let readOnly = try ModelContainer(for: Schema([Trip.self, Stop.self]),
                                          configurations: [ModelConfiguration(url: directory.storeURL, allowsSave: false)])
        let context = ModelContext(readOnly)
        #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Saved"])

        let willSave = Counter()
        let didSave = Counter()
        let observers = [
            NotificationCenter.default.addObserver(forName: ModelContext.willSave, object: context, queue: nil) { _ in willSave.value += 1 },
            NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: context, queue: nil) { _ in didSave.value += 1 },
        ]
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        context.insert(Trip(name: "Refused"))
        let error = #expect(throws: (any Error).self) { try context.save() }
        #expect((error as NSError?)?.code == NSPersistentStoreSaveError)
        #expect(willSave.value == 1 && didSave.value == 0, "a save that fails announces itself but reports nothing saved")
        #expect(context.hasChanges, "the refused insert is still there to keep or roll back")
        #expect(try directory.sqlite("SELECT ZNAME FROM ZTRIP") == ["Saved"])
        context.rollback()
        #expect(!context.hasChanges)
    }

    @Test func savedModelsNobodyHoldsLeaveTheContextAfterTheSave() throws {
        let context = ModelContext(try ModelContainer(for: Trip.self, Stop.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let kept = Trip(name: "Kept")
        context.insert(kept)
        for index in 0..<100 { context.insert(Trip(name: "Trip \(index)", nights: index)) }
        try context.save()
        // As a Core Data context does at the end of its save: an importer that inserts and saves
        // in a loop keeps in memory only what it holds.
        #expect(context.managedObjectContext.registeredObjects.count == 1)
        #expect(try context.fetchCount(FetchDescriptor<Trip>()) == 101)
        #expect(kept.modelContext === context && kept.name == "Kept")
    }

    @Test func processPendingChangesAppliesDeleteRules() throws {
        let container = try ModelContainer(for: Trip.self, Stop.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let stop = Stop(title: "Only", order: 1)
        let trip = Trip(name: "Cascade")
        trip.stops = [stop]
        context.insert(trip)
        try context.save()
        context.delete(trip)
        context.processPendingChanges()
        #expect(stop.isDeleted)
    }

    @MainActor @Test func mainContextSavesByItselfAtTheEndOfTheMainQueueTurn() async throws {
        let directory = TemporaryDirectory()
        let container = try directory.container(Trip.self, Stop.self)
        #expect(container.mainContext.autosaveEnabled)
        #expect(!ModelContext(container).autosaveEnabled)
        container.mainContext.insert(Trip(name: "Autosaved"))
        #expect(container.mainContext.hasChanges)
        await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
        #expect(!container.mainContext.hasChanges)
        #expect(try directory.sqlite("SELECT ZNAME FROM ZTRIP") == ["Autosaved"])
    }

    @MainActor @Test func mainContextSavesAChangeToAFetchedModelByItself() async throws {
        let directory = TemporaryDirectory()
        let container = try directory.container(Trip.self, Stop.self)
        let writer = ModelContext(container)
        writer.insert(Trip(name: "Fetched", nights: 1))
        try writer.save()
        let trip = try #require(try container.mainContext.fetch(FetchDescriptor<Trip>()).first)
        #expect(!container.mainContext.hasChanges)
        trip.nights = 4
        #expect(container.mainContext.hasChanges)
        await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
        #expect(!container.mainContext.hasChanges)
        #expect(try directory.sqlite("SELECT ZNIGHTS FROM ZTRIP") == ["4"])
    }

    @Test func aMergeWaitsForTheModelActorsJobToEnd() async throws {
        let directory = TemporaryDirectory()
        let (container, _, trip) = try directory.containerWithSavedTrip(named: "Porto", nights: 2)
        let reader = NightsReader(modelContainer: container)
        let nights = try await reader.nightsAroundAnotherSave(of: trip.persistentModelID)
        #expect(nights.before == 2 && nights.after == 2, "the merge of the other context's save ran inside the job")
        // Queued before the actor's next job, the merge has run by then.
        #expect(await reader.nights(of: trip.persistentModelID) == 3)
    }

    @Test func modelActorWorksOnItsOwnContext() async throws {
        let directory = TemporaryDirectory()
        let container = try directory.container(Trip.self, Stop.self)
        let importer = TripImporter(modelContainer: container)
        let identifier = try await importer.importTrip(named: "Actor")
        #expect(await importer.name(of: identifier) == "Actor")
        let context = ModelContext(container)
        #expect(try context.fetch(FetchDescriptor<Trip>()).map(\.name) == ["Actor"])
    }
}

@ModelActor
actor NightsReader {
    /// Reads a trip's nights, has another context save a change to them, gives a merge time to
    /// run, and reads them again: all in one job.
    func nightsAroundAnotherSave(of identifier: PersistentIdentifier) throws -> (before: Int, after: Int) {
        let before = self[identifier, as: Trip.self]?.nights ?? -1
        let other = ModelContext(modelContainer)
        for trip in try other.fetch(FetchDescriptor<Trip>()) { trip.nights += 1 }
        try other.save()
        Thread.sleep(forTimeInterval: 0.3)
        return (before, self[identifier, as: Trip.self]?.nights ?? -1)
    }

    func nights(of identifier: PersistentIdentifier) -> Int? {
        self[identifier, as: Trip.self]?.nights
    }
}

@ModelActor
actor TripImporter {
    func importTrip(named name: String) throws -> PersistentIdentifier {
        let trip = Trip(name: name)
        modelContext.insert(trip)
        try modelContext.save()
        return trip.persistentModelID
    }

    func name(of identifier: PersistentIdentifier) -> String? {
        self[identifier, as: Trip.self]?.name
    }
}

final class Counter: @unchecked Sendable { var value = 0 }
final class Box<Value>: @unchecked Sendable { var value: Value? }
