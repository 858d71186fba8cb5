import Foundation
import SwiftData
import Testing

/// The sample-style model file (Trip.swift, BucketListItem.swift, LivingAccommodation.swift)
/// compiles as written; these check that it also behaves as the sample app expects.
@Suite("An Apple-style sample model, unchanged")
struct SampleModelTests {
    let storeURL = FileManager.default.temporaryDirectory.appendingPathComponent("SwiftDataSample-\(UUID().uuidString)/Trips.store")

    func container() throws -> ModelContainer {
        try ModelContainer(for: Trip.self, BucketListItem.self, LivingAccommodation.self, configurations: ModelConfiguration(url: storeURL))
    }

    @Test func aTripWithItsBucketListAndAccommodationSavesAndCascades() throws {
        defer { try? FileManager.default.removeItem(at: storeURL.deletingLastPathComponent()) }
        let context = ModelContext(try container())
        let trip = Trip.preview
        context.insert(trip)
        trip.bucketList.append(BucketListItem(title: "Palace", details: "Early, before the crowds", hasReservation: true, isInPlan: true))
        trip.bucketList.append(BucketListItem(title: "Moorish castle", details: "", hasReservation: false, isInPlan: false))
        let photo = Data(repeating: 7, count: 200_000)
        trip.livingAccommodation = LivingAccommodation(address: "Rua das Flores 1", placeName: "Quinta", photo: photo)
        try context.save()

        let reopened = ModelContext(try container())
        let search = Trip.predicate(searchText: "hills", between: .distantPast, and: .distantFuture)
        let found = try #require(try reopened.fetch(FetchDescriptor(predicate: search)).first)
        #expect(found.displayName == "Weekend in the hills")
        #expect(found.tripDuration == 2)
        #expect(found.plannedItemCount == 1)
        #expect(found.livingAccommodation?.photo == photo)
        #expect(!found.isFavorite)

        reopened.delete(found)
        try reopened.save()
        #expect(try reopened.fetchCount(FetchDescriptor<BucketListItem>()) == 0)
        #expect(try reopened.fetchCount(FetchDescriptor<LivingAccommodation>()) == 0)
    }

    @Test func theCompoundUniqueConstraintUpdatesTheSavedTrip() throws {
        defer { try? FileManager.default.removeItem(at: storeURL.deletingLastPathComponent()) }
        let context = ModelContext(try container())
        let start = Date(timeIntervalSinceReferenceDate: 0), end = Date(timeIntervalSinceReferenceDate: 86_400)
        context.insert(Trip(name: "Porto", destination: "Porto", startDate: start, endDate: end))
        try context.save()
        context.insert(Trip(name: "Porto", destination: "Porto and the Douro", startDate: start, endDate: end))
        try context.save()
        let trips = try ModelContext(try container()).fetch(FetchDescriptor<Trip>())
        #expect(trips.map(\.destination) == ["Porto and the Douro"])
    }
}
