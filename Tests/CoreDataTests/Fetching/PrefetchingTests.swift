import CoreData
import Foundation
import Testing

/// `relationshipKeyPathsForPrefetching`: the destinations of the named relationships are
/// registered and their rows read by the fetch itself, instead of one fault at a time when
/// each is first touched. A batch update behind the context's back after the fetch tells the
/// two apart: a row read ahead keeps the values it had, a row read on touch has the new ones.
@Suite struct PrefetchingTests {
    let directory = TemporaryDirectory()
    let seedDistances = Dictionary(uniqueKeysWithValues: BubbleTeaFixture.venues.map { ($0.name, $0.distance) })

    /// Every venue's location, as object IDs read in a context of their own.
    func locationIDs(in container: NSPersistentContainer) throws -> [NSManagedObjectID] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            try context.fetch(NSFetchRequest<BubbleTeaVenue>(entityName: "Venue")).compactMap { $0.location?.objectID }
        }
    }

    /// Changes in the store, without telling any context, every location's distance, every
    /// price category and every venue's name.
    func rewriteTheStore(of container: NSPersistentContainer) throws {
        let context = container.newBackgroundContext()
        for (entity, values) in [("Location", ["distance": Float(9999)]), ("PriceInfo", ["priceCategory": "free"]),
                                 ("Venue", ["name": "Renamed"])] as [(String, [AnyHashable: Any])] {
            let update = NSBatchUpdateRequest(entityName: entity)
            update.propertiesToUpdate = values
            update.resultType = .updatedObjectsCountResultType
            #expect((try context.execute(update) as? NSBatchUpdateResult)?.result as? Int == 30, "\(entity)")
        }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func prefetchedToOneDestinationsAreRegisteredAndReadByTheFetch(storeType: String) throws {
        let container = try BubbleTeaFixture.container(in: directory, type: storeType)
        let locations = try locationIDs(in: container)
        #expect(locations.count == 30)
        let context = container.newBackgroundContext()
        let request: NSFetchRequest<BubbleTeaVenue> = BubbleTeaVenue.fetchRequest()
        request.relationshipKeyPathsForPrefetching = ["location"]
        let venues = try context.performAndWait { try context.fetch(request) }
        #expect(venues.count == 30)
        #expect(context.performAndWait { locations.allSatisfy { context.registeredObject(for: $0) != nil } })

        let names = context.performAndWait { venues.map { $0.name ?? "" } }

        try rewriteTheStore(of: container)
        let distances = context.performAndWait { venues.map { $0.location?.value(forKey: "distance") as? Float } }
        let prices = context.performAndWait { venues.map { $0.priceInfo?.value(forKey: "priceCategory") as? String } }
        #expect(distances == names.map { seedDistances[$0] }, "each location holds the row the fetch read ahead")
        #expect(prices == Array(repeating: "free", count: 30), "price info was not named, so it is read when first touched")
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func withoutPrefetchingDestinationsAreNeitherRegisteredNorReadByTheFetch(storeType: String) throws {
        let container = try BubbleTeaFixture.container(in: directory, type: storeType)
        let locations = try locationIDs(in: container)
        let context = container.newBackgroundContext()
        let venues = try context.performAndWait { try context.fetch(NSFetchRequest<BubbleTeaVenue>(entityName: "Venue")) }
        #expect(venues.count == 30)
        #expect(context.performAndWait { locations.allSatisfy { context.registeredObject(for: $0) == nil } })

        try rewriteTheStore(of: container)
        let distances = context.performAndWait { venues.map { $0.location?.value(forKey: "distance") as? Float } }
        #expect(distances == Array(repeating: 9999, count: 30))
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func prefetchingAToManyRelationshipReadsEveryMembersRow(storeType: String) throws {
        let container = try BubbleTeaFixture.container(in: directory, type: storeType)
        let context = container.newBackgroundContext()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Category")
        request.relationshipKeyPathsForPrefetching = ["venues"]
        let categories = try context.performAndWait { try context.fetch(request) }
        #expect(categories.count == BubbleTeaFixture.categoryNames.count)

        try rewriteTheStore(of: container)
        let names = context.performAndWait {
            categories.flatMap { category in
                ((category.value(forKey: "venues") as? NSSet)?.allObjects as? [NSManagedObject] ?? []).map { $0.value(forKey: "name") as? String }
            }
        }
        #expect(names.compactMap { $0 }.sorted() == BubbleTeaFixture.venues.map(\.name).sorted())
    }
}
