import Foundation
import Observation
import SwiftData
import Synchronization
import Testing

/// A model's observers hear of values that change underneath it, not only of its own sets.
@Suite("Observing models")
struct ObservationTests {
    /// Counts `onChange` calls, which come on whatever thread made the change.
    final class Changes: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func note() { count.withLock { $0 += 1 } }

        /// Waits until a change came, for changes another context's queue delivers.
        func wait() async throws {
            for _ in 0..<500 where value == 0 { try await Task.sleep(for: .milliseconds(10)) }
        }
    }

    private func track(_ read: @escaping () -> Void) -> Changes {
        let changes = Changes()
        withObservationTracking(read) { changes.note() }
        return changes
    }

    @Test func aRefreshOfOneModelTellsObserversOfTheValuesItMoved() throws {
        let directory = TemporaryDirectory()
        let context = ModelContext(try directory.container(Trip.self, Stop.self))
        let trip = Trip(name: "Porto", nights: 1)
        context.insert(trip)
        try context.save()
        // Another container (another coordinator) changes the file; nothing merges that here.
        let other = ModelContext(try directory.container(Trip.self, Stop.self))
        try #require(try other.fetch(FetchDescriptor<Trip>()).first).nights = 7
        try other.save()

        trip.rating = 4
        // The edit's event ends, as the end of a run-loop turn would end it.
        context.processPendingChanges()
        let nights = track { _ = trip.nights }
        let rating = track { _ = trip.rating }
        let start = track { _ = trip.start }
        let object = try #require(context.managedObjectContext.registeredObjects.first { $0.value(forKey: "name") as? String == "Porto" })
        context.managedObjectContext.refresh(object, mergeChanges: true)
        #expect(nights.value == 1, "the store's new value is read underneath the unsaved change")
        #expect(rating.value == 0, "the unsaved change stays as it was")
        #expect(start.value == 0, "a property the store did not change is not reported")
        #expect(trip.nights == 7 && trip.rating == 4)
    }

    @Test func aMergeOfAnotherContextsSaveTellsObserversOfTheMergedProperties() async throws {
        let directory = TemporaryDirectory()
        let (container, writer, written) = try directory.containerWithSavedTrip(named: "Lisbon", nights: 2)

        let reader = ModelContext(container)
        let trip = try #require(try reader.fetch(FetchDescriptor<Trip>()).first)
        #expect(trip.nights == 2)
        let nights = track { _ = trip.nights }
        let start = track { _ = trip.start }
        written.nights = 5
        try writer.save()
        try await nights.wait()
        #expect(nights.value == 1)
        #expect(start.value == 0, "a property the merge did not change is not reported")
        #expect(trip.nights == 5)
    }

    @Test func observersOfAModelNobodyHoldsHearOfChangesThroughTheObjectsNextModel() throws {
        let context = ModelContext(try ModelContainer(for: Trip.self, Stop.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        context.insert(Trip(name: "Lisbon", nights: 2))
        try context.save()
        weak var first: Trip?
        let nights: Changes
        do {
            let trip = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
            first = trip
            nights = track { _ = trip.nights }
        }
        #expect(first == nil, "nothing holds the observed model any longer")
        let next = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
        let name = track { _ = next.name }
        next.nights = 3
        #expect(nights.value == 1, "the object's observers are kept with the object, not its model")
        #expect(name.value == 0)
    }

    @Test func observersOfAModelMadeInCodeKeepHearingAfterItsInsertion() throws {
        let context = ModelContext(try ModelContainer(for: Trip.self, Stop.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        weak var made: Trip?
        let nights: Changes
        do {
            let trip = Trip(name: "Lisbon", nights: 2)
            made = trip
            nights = track { _ = trip.nights }
            context.insert(trip)
            try context.save()
            #expect(nights.value == 0, "inserting and saving changed no value")
        }
        #expect(made == nil, "nothing holds the model made in code any longer")
        let fetched = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
        fetched.nights = 3
        #expect(nights.value == 1, "the object inserted for the model keeps the observers registered before")
    }

    @Test func observersOfOneFetchedModelDoNotHearOfAnothersChanges() throws {
        let context = ModelContext(try ModelContainer(for: Trip.self, Stop.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        context.insert(Trip(name: "Lisbon", nights: 2))
        context.insert(Trip(name: "Porto", nights: 1))
        try context.save()
        let trips = try ModelContext(context.container).fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]))
        try #require(trips.count == 2)
        let lisbon = track { _ = trips[0].nights }
        trips[1].nights = 5
        #expect(lisbon.value == 0, "each fetched object has observers of its own")
        trips[0].nights = 3
        #expect(lisbon.value == 1)
    }

    @Test func aFetchedModelsBackingDataIsMadeWhenAskedForAndSharesItsObservers() throws {
        let context = ModelContext(try ModelContainer(for: Trip.self, Stop.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let inserted = Trip(name: "Lisbon", nights: 2)
        context.insert(inserted)
        try context.save()
        let savedID = inserted.persistentModelID
        let trip = try #require(try ModelContext(context.container).fetch(FetchDescriptor<Trip>()).first)
        let nights = track { _ = trip.nights }
        let backing = trip.persistentBackingData
        #expect(trip.persistentBackingData === backing, "made once, then kept by the model")
        #expect(backing.context === trip.modelContext && trip.modelContext !== context)
        #expect(trip.persistentModelID == savedID && !trip.hasChanges && !trip.isDeleted)
        trip.nights = 3
        #expect(nights.value == 1, "observers registered before the backing data was made hear of later sets")
        #expect(trip.hasChanges && trip.nights == 3)
        let again = track { _ = trip.nights }
        backing.observationRegistrar.withMutation(of: trip, keyPath: \.nights) {}
        #expect(again.value == 1, "the backing data's registrar is the one the model's reads register with")
    }

    @Test func aRollbackTellsObserversOfTheRevertedValues() throws {
        let context = ModelContext(try ModelContainer(for: Trip.self, Stop.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let trip = Trip(name: "Lisbon", nights: 2)
        context.insert(trip)
        try context.save()
        trip.nights = 9
        let nights = track { _ = trip.nights }
        context.rollback()
        #expect(nights.value == 1)
        #expect(trip.nights == 2)
    }

    @Test func aModelsOwnSetsTellItsObserversWhetherOrNotItWasReadBefore() throws {
        let context = ModelContext(try ModelContainer(for: Trip.self, Stop.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        context.insert(Trip(name: "Lisbon", nights: 2))
        try context.save()
        let trip = try #require(try ModelContext(context.container).fetch(FetchDescriptor<Trip>()).first)
        trip.nights = 3
        let nights = track { _ = trip.nights }
        let start = track { _ = trip.start }
        trip.nights = 4
        #expect(nights.value == 1, "a set made before anybody read the model leaves later observers working")
        #expect(start.value == 0)
        let rating = track { _ = trip.rating }
        trip.rating = 5
        #expect(rating.value == 1 && nights.value == 1)
    }

    @Test func aRefreshTellsObservers() throws {
        let directory = TemporaryDirectory()
        let context = ModelContext(try directory.container(Trip.self, Stop.self))
        let trip = Trip(name: "Lisbon", nights: 2)
        let edited = Trip(name: "Porto", nights: 1)
        context.insert(trip)
        context.insert(edited)
        try context.save()
        // Another container (another coordinator) changes the file; nothing merges that here.
        let other = ModelContext(try directory.container(Trip.self, Stop.self))
        let porto = "Porto"
        try #require(try other.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == porto })).first).nights = 7
        try other.save()

        edited.rating = 4
        let name = track { _ = trip.name }
        let nights = track { _ = edited.nights }
        let start = track { _ = edited.start }
        context.managedObjectContext.refreshAllObjects()
        #expect(name.value == 1, "an object without changes drops its values")
        #expect(nights.value == 1, "an object keeping its changes is read again underneath them")
        #expect(start.value == 0, "a property the store did not change is not reported")
        #expect(trip.name == "Lisbon" && edited.nights == 7 && edited.rating == 4)
    }
}
