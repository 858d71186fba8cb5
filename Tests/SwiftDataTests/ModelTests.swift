import Foundation
import SwiftData
import Testing

@Suite("@Model classes and the schema")
struct ModelTests {
    @Test func schemaMapsModelsToCoreDataEntitiesAndTables() throws {
        let directory = TemporaryDirectory()
        let container = try directory.container(Trip.self, Stop.self)
        let trip = try #require(container.schema.entitiesByName["Trip"])
        #expect(trip.attributesByName["name"]?.isOptional == false)
        #expect(trip.attributesByName["rating"]?.isOptional == true)
        #expect(trip.attributesByName["viewCount"] == nil)
        #expect(trip.uniquenessConstraints == [["name"]])
        #expect(trip.indices == [["start"], ["name", "start"]])
        let stops = try #require(trip.relationshipsByName["stops"])
        #expect(stops.destination == "Stop")
        #expect(stops.inverseName == "trip")
        #expect(stops.deleteRule == .cascade)
        #expect(!stops.isToOneRelationship)
        #expect(container.schema.entitiesByName["Stop"]?.relationshipsByName["trip"]?.isToOneRelationship == true)
        let entity = try #require(container.schema.managedObjectModel.entitiesByName["Trip"])
        #expect(entity.attributesByName["nights"]?.attributeType == .integer64AttributeType)
        #expect(entity.attributesByName["kind"]?.attributeType == .stringAttributeType)
        #expect(entity.attributesByName["place"]?.attributeType == .binaryDataAttributeType)

        let context = ModelContext(container)
        context.insert(Trip(name: "Lisbon"))
        try context.save()
        #expect(try directory.sqlite("SELECT ZNAME FROM ZTRIP") == ["Lisbon"])
    }

    @Test func indexesBecomeSQLiteIndexesOnTheEntityTable() throws {
        let directory = TemporaryDirectory()
        let container = try directory.container(Trip.self, Stop.self)
        let entity = try #require(container.schema.managedObjectModel.entitiesByName["Trip"])
        #expect(entity.indexes.map { $0.elements.compactMap(\.propertyName) } == [["start"], ["name", "start"]])
        // Read by the sqlite3 tool: the file has the indexes, over the columns in order.
        #expect(Set(try directory.sqlite("SELECT name FROM pragma_index_list('ZTRIP') WHERE name GLOB 'Z_Trip_*'")) == ["Z_Trip_start", "Z_Trip_name_start"])
        #expect(try directory.sqlite("SELECT name FROM pragma_index_info('Z_Trip_name_start') ORDER BY seqno") == ["ZNAME", "ZSTART"])
        #expect(try directory.sqlite("EXPLAIN QUERY PLAN SELECT Z_PK FROM ZTRIP WHERE ZSTART > 0").joined().contains("Z_Trip_start"))
    }

    @Test func modelsAreObservable() throws {
        let context = ModelContext(try ModelContainer(for: Trip.self, Stop.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let trip = Trip(name: "Lisbon")
        context.insert(trip)
        let changes = Counter()
        withObservationTracking { _ = trip.nights } onChange: { changes.value += 1 }
        trip.name = "Porto"
        #expect(changes.value == 0, "a property not read is not tracked")
        trip.nights = 3
        #expect(changes.value == 1)
        #expect(trip.nights == 3)
    }

    @Test func everyKindOfPropertyRoundTripsThroughTheStoreFile() throws {
        let directory = TemporaryDirectory()
        let identifier: UUID
        do {
            let context = ModelContext(try directory.container(Trip.self, Stop.self))
            let trip = Trip(name: "Porto", start: Date(timeIntervalSinceReferenceDate: 1000), nights: 3, kind: .business)
            trip.budget = Decimal(string: "1234.56")!
            trip.rating = 4.5
            trip.tags = ["food", "wine"]
            trip.place = Trip.Place(city: "Porto", country: "PT")
            trip.website = URL(string: "https://example.org/porto")
            trip.photo = Data([1, 2, 3])
            identifier = trip.identifier
            context.insert(trip)
            try context.save()
        }
        let context = ModelContext(try directory.container(Trip.self, Stop.self))
        let trip = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
        #expect(trip.name == "Porto")
        #expect(trip.start == Date(timeIntervalSinceReferenceDate: 1000))
        #expect(trip.nights == 3)
        #expect(trip.kind == .business)
        #expect(trip.budget == Decimal(string: "1234.56")!)
        #expect(trip.rating == 4.5)
        #expect(trip.tags == ["food", "wine"])
        #expect(trip.place == Trip.Place(city: "Porto", country: "PT"))
        #expect(trip.identifier == identifier)
        #expect(trip.website == URL(string: "https://example.org/porto"))
        #expect(trip.photo == Data([1, 2, 3]))
        #expect(trip.viewCount == 0)
    }

    @Test func relationshipsInsertRelatedModelsAndKeepInversesInStep() throws {
        let directory = TemporaryDirectory()
        let context = ModelContext(try directory.container(Trip.self, Stop.self))
        let trip = Trip(name: "Rome")
        trip.stops = [Stop(title: "Colosseum", order: 1), Stop(title: "Forum", order: 2)]
        context.insert(trip)
        #expect(context.insertedModelsArray.count == 3)
        let extra = Stop(title: "Pantheon", order: 3)
        extra.trip = trip
        try context.save()

        let fresh = ModelContext(try directory.container(Trip.self, Stop.self))
        let fetched = try #require(try fresh.fetch(FetchDescriptor<Trip>()).first)
        #expect(Set(fetched.stops.map(\.title)) == ["Colosseum", "Forum", "Pantheon"])
        #expect(fetched.stops.allSatisfy { $0.trip === fetched })

        fresh.delete(fetched)
        try fresh.save()
        #expect(try fresh.fetchCount(FetchDescriptor<Stop>()) == 0)
    }

    @Test func identityStateAndContextOfAModel() throws {
        let container = try ModelContainer(for: Trip.self, Stop.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let trip = Trip(name: "Oslo")
        #expect(trip.modelContext == nil)
        #expect(trip.hasChanges)
        let unattached = trip.persistentModelID
        context.insert(trip)
        #expect(trip.modelContext === context)
        #expect(trip.persistentModelID != unattached)
        #expect(trip.persistentModelID.entityName == "Trip")
        try context.save()
        #expect(!trip.hasChanges)
        let saved = trip.persistentModelID
        #expect(saved.storeIdentifier != nil)
        let decoded = try JSONDecoder().decode(PersistentIdentifier.self, from: JSONEncoder().encode(saved))
        #expect(decoded == saved)

        let other = ModelContext(container)
        let found = try #require(other.model(for: decoded) as? Trip)
        #expect(found.name == "Oslo")
        #expect((other.registeredModel(for: saved) as Trip?) === found)

        trip.nights = 5
        #expect(trip.hasChanges)
        context.delete(trip)
        #expect(trip.isDeleted)
    }

    @Test func aModelGivenOtherBackingDataReadsItAndLeavesItsObjectToANewModel() throws {
        let context = ModelContext(try ModelContainer(for: Trip.self, Stop.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let trip = Trip(name: "Oslo", nights: 2)
        context.insert(trip)
        try context.save()
        trip.persistentBackingData = Trip(name: "Bergen", nights: 4).persistentBackingData
        #expect(trip.name == "Bergen" && trip.nights == 4 && trip.modelContext == nil)
        let oslo = try #require(try context.fetch(FetchDescriptor<Trip>()).first)
        #expect(oslo !== trip, "the saved object no longer names the model that let go of it")
        #expect(oslo.name == "Oslo" && oslo.modelContext === context)
    }
}
