import Foundation
import SwiftData
import Testing

@Suite("PersistentIdentifier: live and decoded identifiers agree")
struct PersistentIdentifierTests {
    private func roundTrip(_ identifier: PersistentIdentifier) throws -> PersistentIdentifier {
        try JSONDecoder().decode(PersistentIdentifier.self, from: JSONEncoder().encode(identifier))
    }

    @Test func aDecodedIdentifierEqualsAndHashesAsTheLiveOne() throws {
        let directory = TemporaryDirectory()
        let context = ModelContext(try directory.container(Trip.self, Stop.self))
        let trips = ["Lima", "Quito", "Cusco"].map { Trip(name: $0) }
        trips.forEach(context.insert)
        try context.save()
        let live = trips.map(\.persistentModelID)
        let decoded = try live.map(roundTrip)

        #expect(decoded == live)
        #expect(live == decoded)
        #expect(decoded.map(\.hashValue) == live.map(\.hashValue))
        #expect(decoded[0] != live[1] && live[2] != decoded[0])
        #expect(decoded.map(\.storeIdentifier) == live.map(\.storeIdentifier))
        #expect(decoded.map(\.entityName) == ["Trip", "Trip", "Trip"])

        #expect(Set(live).isSuperset(of: decoded) && Set(decoded).isSuperset(of: live))
        #expect(Set(live + decoded).count == 3)
        let names = Dictionary(uniqueKeysWithValues: zip(live, trips.map(\.name)))
        #expect(decoded.map { names[$0] } == ["Lima", "Quito", "Cusco"])
        let byDecoded = Dictionary(uniqueKeysWithValues: zip(decoded, trips.map(\.name)))
        #expect(live.map { byDecoded[$0] } == ["Lima", "Quito", "Cusco"])

        #expect(live.sorted() == decoded.sorted())
        #expect((live[0] < live[1]) == (decoded[0] < live[1]) && (live[0] < live[1]) == (live[0] < decoded[1]))
    }

    @Test func identifiersOfOneModelAgreeAcrossContextsOfOneContainer() throws {
        let directory = TemporaryDirectory()
        let container = try directory.container(Trip.self, Stop.self)
        let context = ModelContext(container)
        let trip = Trip(name: "Oslo")
        context.insert(trip)
        try context.save()

        let other = ModelContext(container)
        let fetched = try #require(try other.fetch(FetchDescriptor<Trip>()).first)
        #expect(fetched.persistentModelID == trip.persistentModelID)
        #expect(fetched.persistentModelID.hashValue == trip.persistentModelID.hashValue)
        #expect(try other.fetchIdentifiers(FetchDescriptor<Trip>()) == [trip.persistentModelID])
        let decoded = try roundTrip(trip.persistentModelID)
        #expect(Set([fetched.persistentModelID, trip.persistentModelID, decoded]).count == 1)
        #expect((other.registeredModel(for: decoded) as Trip?) === fetched)
    }

    @Test func aTemporaryIdentifierRoundTripsAndDiffersFromThePermanentOne() throws {
        let context = ModelContext(try ModelContainer(for: Trip.self, Stop.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let trip = Trip(name: "Bergen")
        let unattached = trip.persistentModelID
        #expect(try roundTrip(unattached) == unattached)
        #expect(try roundTrip(unattached).hashValue == unattached.hashValue)

        context.insert(trip)
        let temporary = trip.persistentModelID
        #expect(temporary.storeIdentifier == nil)
        #expect(temporary != unattached)
        let decodedTemporary = try roundTrip(temporary)
        #expect(decodedTemporary == temporary && temporary == decodedTemporary)
        #expect(decodedTemporary.hashValue == temporary.hashValue)

        try context.save()
        let permanent = trip.persistentModelID
        #expect(permanent.storeIdentifier != nil)
        #expect(permanent != temporary && permanent != decodedTemporary)
        #expect(try roundTrip(permanent) != temporary && (try roundTrip(permanent)) != decodedTemporary)
        #expect(Set([unattached, temporary, decodedTemporary, permanent, try roundTrip(permanent)]).count == 3)
    }
}
