import CoreData
import Foundation
import Testing

/// The BubbleTeaFinder chapter replayed end to end: stored fetch requests, counts three ways,
/// a sum of deals, the filter and sort screen, an asynchronous fetch and a batch update.
@Suite struct BubbleTeaFinderTests {
    let directory = TemporaryDirectory()

    static var cheap: NSPredicate { NSPredicate(format: "%K == %@", "priceInfo.priceCategory", "$") }
    static var moderate: NSPredicate { NSPredicate(format: "%K == %@", "priceInfo.priceCategory", "$$") }
    static var expensive: NSPredicate { NSPredicate(format: "%K == %@", "priceInfo.priceCategory", "$$$") }

    func names(_ venues: [BubbleTeaVenue], in context: NSManagedObjectContext) -> [String] {
        context.performAndWait { venues.compactMap(\.name) }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func priceCategoryCountsAgreeWhicheverWayTheyAreComputed(storeType: String) throws {
        let context = try BubbleTeaFixture.container(in: directory, type: storeType).viewContext
        for (predicate, price, expected) in [(Self.cheap, "$", 27), (Self.moderate, "$$", 2), (Self.expensive, "$$$", 1)] {
            let countRequest = NSFetchRequest<NSNumber>(entityName: "Venue")
            countRequest.resultType = .countResultType
            countRequest.predicate = predicate
            #expect(try context.fetch(countRequest).first?.intValue == expected)

            let venueRequest: NSFetchRequest<BubbleTeaVenue> = BubbleTeaVenue.fetchRequest()
            venueRequest.predicate = predicate
            #expect(try context.count(for: venueRequest) == expected)

            let counted = NSExpressionDescription()
            counted.name = "venues"
            counted.expression = NSExpression(forFunction: "count:", arguments: [NSExpression(forKeyPath: "name")])
            counted.expressionResultType = .integer64AttributeType
            let dictionaryRequest = NSFetchRequest<NSDictionary>(entityName: "Venue")
            dictionaryRequest.resultType = .dictionaryResultType
            dictionaryRequest.predicate = predicate
            dictionaryRequest.propertiesToFetch = [counted]
            #expect(try context.fetch(dictionaryRequest).first?["venues"] as? Int == expected, "\(price)")
        }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func sumOfSpecialCountGivesTheTotalNumberOfDeals(storeType: String) throws {
        let context = try BubbleTeaFixture.container(in: directory, type: storeType).viewContext
        let request = NSFetchRequest<NSDictionary>(entityName: "Venue")
        request.resultType = .dictionaryResultType
        let sumDeals = NSExpressionDescription()
        sumDeals.name = "sumDeals"
        sumDeals.expression = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "specialCount")])
        sumDeals.expressionResultType = .integer32AttributeType
        request.propertiesToFetch = [sumDeals]
        let results = try context.fetch(request)
        #expect(results.count == 1)
        let seedTotal = Int(BubbleTeaFixture.venues.map(\.specialCount).reduce(0, +))
        #expect(results.first?["sumDeals"] as? Int == seedTotal && seedTotal == 12, "the store's sum is the seed file's")
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func filtersReturnTheVenuesTheyDescribe(storeType: String) throws {
        let context = try BubbleTeaFixture.container(in: directory, type: storeType).viewContext
        let seed = BubbleTeaFixture.venues
        let filters: [(NSPredicate, (SeedVenue) -> Bool)] = [
            (Self.cheap, { $0.price == "$" }),
            (Self.moderate, { $0.price == "$$" }),
            (Self.expensive, { $0.price == "$$$" }),
            (NSPredicate(format: "%K > 0", "specialCount"), { $0.specialCount > 0 }),
            (NSPredicate(format: "%K < 500", "location.distance"), { $0.distance < 500 }),
            (NSPredicate(format: "%K > 0", "stats.tipCount"), { $0.tipCount > 0 }),
        ]
        for (predicate, reference) in filters {
            let request: NSFetchRequest<BubbleTeaVenue> = BubbleTeaVenue.fetchRequest()
            request.predicate = predicate
            let expected = seed.filter(reference).map(\.name).sorted()
            #expect(!expected.isEmpty && expected.count < seed.count, "the filter \(predicate) must select some venues, not all")
            #expect(names(try context.fetch(request), in: context).sorted() == expected, "\(predicate)")
        }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func sortsOrderVenuesByNameDistanceAndPrice(storeType: String) throws {
        let context = try BubbleTeaFixture.container(in: directory, type: storeType).viewContext
        let seed = BubbleTeaFixture.venues
        let byName = seed.map(\.name).sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        #expect(byName.first == "almond Drift", "localized order ignores case")

        let nameSort = NSSortDescriptor(key: "name", ascending: true, selector: Selector("localizedStandardCompare:"))
        let sorts: [(NSSortDescriptor, [String])] = [
            (nameSort, byName),
            (nameSort.reversedSortDescriptor as! NSSortDescriptor, byName.reversed()),
            (NSSortDescriptor(key: "location.distance", ascending: true), seed.sorted { $0.distance < $1.distance }.map(\.name)),
        ]
        for (descriptor, expected) in sorts {
            let request: NSFetchRequest<BubbleTeaVenue> = BubbleTeaVenue.fetchRequest()
            request.sortDescriptors = [descriptor]
            #expect(names(try context.fetch(request), in: context) == expected, "\(descriptor)")
        }
        let byPrice: NSFetchRequest<BubbleTeaVenue> = BubbleTeaVenue.fetchRequest()
        byPrice.sortDescriptors = [NSSortDescriptor(key: "priceInfo.priceCategory", ascending: true)]
        let prices = context.performAndWait {
            try? context.fetch(byPrice).compactMap { $0.priceInfo?.value(forKey: "priceCategory") as? String }
        }
        #expect(prices == seed.map(\.price).sorted())
        #expect(prices?.last == "$$$")
    }

    @Test func asynchronousFetchDeliversTheVenuesOnTheContextQueue() async throws {
        let container = try BubbleTeaFixture.container(in: directory)
        let context = container.newBackgroundContext()
        let request: NSFetchRequest<BubbleTeaVenue> = BubbleTeaVenue.fetchRequest()
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let names: [String] = try await withCheckedThrowingContinuation { continuation in
            let asyncFetch = NSAsynchronousFetchRequest<BubbleTeaVenue>(fetchRequest: request) { result in
                if let error = result.operationError { return continuation.resume(throwing: error) }
                continuation.resume(returning: (result.finalResult ?? []).compactMap(\.name))
            }
            do { _ = try context.execute(asyncFetch) } catch { continuation.resume(throwing: error) }
        }
        #expect(names == BubbleTeaFixture.venues.map(\.name).sorted())
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func markingAllAsFavouriteByBatchUpdateReportsTheCount(storeType: String) throws {
        let container = try BubbleTeaFixture.container(in: directory, type: storeType)
        let context = container.viewContext
        let batchUpdate = NSBatchUpdateRequest(entityName: "Venue")
        batchUpdate.propertiesToUpdate = ["favorite": true]
        batchUpdate.affectedStores = container.persistentStoreCoordinator.persistentStores
        batchUpdate.resultType = .updatedObjectsCountResultType
        let result = try context.execute(batchUpdate) as? NSBatchUpdateResult
        #expect(result?.result as? Int == 30)
        let favourites: NSFetchRequest<BubbleTeaVenue> = BubbleTeaVenue.fetchRequest()
        favourites.predicate = NSPredicate(format: "favorite == YES")
        #expect(try context.count(for: favourites) == 30)
    }

    @Test func storedFetchRequestTemplatesFetchAndRefuseMutation() throws {
        let model = BubbleTeaFixture.model()
        model.setFetchRequestTemplate(NSFetchRequest<NSFetchRequestResult>(entityName: "Venue"), forName: "FetchRequest")
        let byName = NSFetchRequest<NSFetchRequestResult>(entityName: "Venue")
        byName.predicate = NSPredicate(format: "name == $NAME")
        model.setFetchRequestTemplate(byName, forName: "venueFR")
        let container = try BubbleTeaFixture.container(in: directory, model: model)
        let context = container.viewContext
        let coordinatorModel = try #require(context.persistentStoreCoordinator?.managedObjectModel)

        let stored = try #require(coordinatorModel.fetchRequestTemplate(forName: "FetchRequest"))
        #expect(try context.fetch(stored).count == 30)
        #expect(try context.fetch(stored).allSatisfy { $0 is BubbleTeaVenue })

        stored.fetchLimit = 5
        let changed = try #require(throws: NSError.self) { try context.fetch(stored) }
        #expect(changed.localizedDescription.contains("immutable") && changed.localizedDescription.contains("fetchLimit"))
        let copy = try #require(coordinatorModel.fetchRequestTemplate(forName: "FetchRequest")?.copy() as? NSFetchRequest<NSFetchRequestResult>)
        copy.fetchLimit = 5
        #expect(try context.fetch(copy).count == 5, "a copy of a template may be changed")

        let substituted = try #require(coordinatorModel.fetchRequestFromTemplate(withName: "venueFR", substitutionVariables: ["NAME": "Jade Kettle"]))
        let found = try context.fetch(substituted)
        #expect(found.count == 1)
        #expect(context.performAndWait { (found.first as? BubbleTeaVenue)?.name } == "Jade Kettle")
        let none = try #require(coordinatorModel.fetchRequestFromTemplate(withName: "venueFR", substitutionVariables: ["NAME": "Nowhere"]))
        #expect(try context.fetch(none).isEmpty)
    }
}
