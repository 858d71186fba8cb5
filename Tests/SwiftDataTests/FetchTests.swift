import Foundation
import SwiftData
import Testing

@Suite("Fetching with FetchDescriptor and #Predicate")
struct FetchTests {
    /// Five trips, saved: nights 1…5, names Alpha…Echo, "Écho" spelt with an accent.
    func seeded() throws -> (TemporaryDirectory, ModelContext) {
        let directory = TemporaryDirectory()
        let context = ModelContext(try directory.container(Trip.self, Stop.self))
        for (index, name) in ["Alpha", "Bravo", "Charlie", "Delta", "Écho"].enumerated() {
            let trip = Trip(name: name, nights: index + 1, kind: index.isMultiple(of: 2) ? .leisure : .business)
            trip.rating = index == 0 ? nil : Double(index)
            let stop = Stop(title: "\(name) stop", order: index)
            trip.stops = [stop]
            context.insert(trip)
        }
        try context.save()
        return (directory, context)
    }

    @Test func predicateSortLimitAndOffsetRunInTheStore() throws {
        let (_, context) = try seeded()
        var descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.nights >= 2 && $0.name != "Delta" }, sortBy: [SortDescriptor(\.nights, order: .reverse)])
        #expect(try context.fetch(descriptor).map(\.name) == ["Écho", "Charlie", "Bravo"])
        descriptor.fetchLimit = 1
        descriptor.fetchOffset = 1
        #expect(try context.fetch(descriptor).map(\.name) == ["Charlie"])
        #expect(try context.fetchCount(FetchDescriptor<Trip>(predicate: #Predicate { $0.nights >= 2 })) == 4)
    }

    @Test func optionalsStringsAndRelationshipsInPredicates() throws {
        let (_, context) = try seeded()
        let unrated = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.rating == nil }))
        #expect(unrated.map(\.name) == ["Alpha"])
        let wellRated = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { ($0.rating ?? 0) > 2.5 }, sortBy: [SortDescriptor(\.name)]))
        #expect(wellRated.map(\.name) == ["Delta", "Écho"])
        let prefix = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name.starts(with: "Ch") }))
        #expect(prefix.map(\.name) == ["Charlie"])
        let stops = try context.fetch(FetchDescriptor<Stop>(predicate: #Predicate { $0.trip?.name == "Bravo" }))
        #expect(stops.map(\.title) == ["Bravo stop"])
        let names = ["Alpha", "Delta"]
        #expect(try context.fetchCount(FetchDescriptor<Trip>(predicate: #Predicate { names.contains($0.name) })) == 2)
    }

    @Test func modelsCompareByPersistentModelID() throws {
        let (_, context) = try seeded()
        let bravo = try #require(try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Bravo" })).first)
        let id = bravo.persistentModelID
        let stops = try context.fetch(FetchDescriptor<Stop>(predicate: #Predicate { $0.trip?.persistentModelID == id }))
        #expect(stops.map(\.title) == ["Bravo stop"])
        #expect(try context.fetchCount(FetchDescriptor<Trip>(predicate: #Predicate { $0.persistentModelID != id })) == 4)
    }

    @Test func localizedStandardContainsIgnoresCaseAndDiacritics() throws {
        let (_, context) = try seeded()
        let found = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name.localizedStandardContains("ECHO") }))
        #expect(found.map(\.name) == ["Écho"])
        let predicate = #Predicate<Trip> { $0.name.localizedStandardContains("ECHO") }
        #expect(try predicate.evaluate(found[0]))
    }

    @Test func includePendingChangesSeesUnsavedInserts() throws {
        let (_, context) = try seeded()
        context.insert(Trip(name: "Foxtrot", nights: 10))
        var descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.nights == 10 })
        #expect(try context.fetchCount(descriptor) == 1)
        descriptor.includePendingChanges = false
        #expect(try context.fetch(descriptor).isEmpty)
    }

    @Test func identifiersBatchesAndEnumeration() throws {
        let (_, context) = try seeded()
        let descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.nights)])
        let identifiers = try context.fetchIdentifiers(descriptor)
        #expect(identifiers == (try context.fetch(descriptor)).map(\.persistentModelID))
        let batched = try context.fetch(descriptor, batchSize: 2)
        #expect(batched.count == 5)
        #expect(batched.map(\.name) == ["Alpha", "Bravo", "Charlie", "Delta", "Écho"])
        var seen: [Int] = []
        try context.enumerate(descriptor, batchSize: 2) { seen.append($0.nights) }
        #expect(seen == [1, 2, 3, 4, 5])
    }

    @Test func aModelIsTheSameInstanceEachTimeItsContextFetchesIt() throws {
        let (_, context) = try seeded()
        let descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.nights)])
        let first = try context.fetch(descriptor)
        let again = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.nights, order: .reverse)]))
        #expect(zip(first, again.reversed()).allSatisfy { $0 === $1 })
        let batched = try context.fetch(descriptor, batchSize: 2)
        #expect(zip(first, batched).allSatisfy { $0 === $1 })
        #expect(first.allSatisfy { $0.modelContext === context && !$0.hasChanges })
        first[0].nights = 9
        #expect(first[0].hasChanges && again.last?.nights == 9)
        #expect(try context.fetch(descriptor).contains { $0 === first[0] })
    }

    @Test func aModelNobodyHoldsGoesAndItsObjectGetsANewOneOnDemand() throws {
        let (_, context) = try seeded()
        let descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.nights)])
        weak var fetched: Trip?
        weak var inserted: Trip?
        do {
            let trips = try context.fetch(descriptor)
            fetched = trips[0]
            let fresh = Trip(name: "Foxtrot", nights: 6, kind: .leisure)
            context.insert(fresh)
            inserted = fresh
        }
        #expect(fetched == nil && inserted == nil)
        // The objects stay registered; each gets a new model, which reads their values.
        let again = try context.fetch(descriptor)
        #expect(again.map(\.name) == ["Alpha", "Bravo", "Charlie", "Delta", "Écho", "Foxtrot"])
        #expect(context.insertedModelsArray.compactMap { ($0 as? Trip)?.name } == ["Foxtrot"])
        #expect(context.insertedModelsArray.first as? Trip === again.last)
        // Turning the objects into faults reaches only the models that exist now.
        context.managedObjectContext.refreshAllObjects()
        #expect(again.map(\.nights) == [1, 2, 3, 4, 5, 6])
        try context.save()
        #expect(try context.fetch(descriptor).elementsEqual(again, by: ===))
    }

    @Test func anObjectWhoseModelWentIsNotKeptAliveByWhatItKeptForItsNextModel() throws {
        let context = ModelContext(try ModelContainer(for: Trip.self, Stop.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        weak var object: NSManagedObject?
        do {
            let trip = Trip(name: "Alpha", nights: 1)
            context.insert(trip)
            try context.save()
            trip.nights = 10
            try context.save()
            object = context.managedObjectContext.registeredObjects.first
            #expect(object != nil)
        }
        // Once the context lets go, nothing holds the object: it keeps the backing data of its
        // models, which must not keep the object in turn.
        context.managedObjectContext.reset()
        #expect(object == nil)
        let again = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
        #expect(again.nights == 10 && again.modelContext === context)
    }

    @Test func untranslatablePredicateThrowsAClearError() throws {
        let (_, context) = try seeded()
        let descriptor = FetchDescriptor<Trip>(predicate: #Predicate { $0.viewCount > 0 })
        #expect {
            try context.fetch(descriptor)
        } throws: { error in
            let error = error as NSError
            return error.domain == NSCocoaErrorDomain && error.code == 134060
                && error.localizedDescription.contains("does not name a modelled property")
        }
    }
}
