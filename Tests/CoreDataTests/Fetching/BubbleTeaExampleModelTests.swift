import CoreData
import Foundation
import Testing

/// The chapter's own Xcode model and seed file (from `Examples/BubbleTeaFinder`): imported as the
/// app does, they give the numbers the book shows on the filter screen.
@Suite struct BubbleTeaExampleModelTests {
    let directory = TemporaryDirectory()

    static var example: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/BubbleTeaFinder")
    }

    func importedContext() throws -> NSManagedObjectContext {
        let model = try NSManagedObjectModel.load(contentsOf: Self.example.appendingPathComponent("Model/BubbleTeaFinder.xcdatamodeld"))
        let container = try makeContainer("BubbleTeaFinder", model: model, storeURL: directory.file("Example.sqlite"))
        let data = try Data(contentsOf: Self.example.appendingPathComponent("Resources/seed.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let venues = try #require((root["response"] as? [String: Any])?["venues"] as? [[String: Any]])
        let context = container.viewContext
        try context.performAndWait {
            for entry in venues {
                let venue = NSEntityDescription.insertNewObject(forEntityName: "Venue", into: context)
                venue.setValue(entry["name"], forKey: "name")
                venue.setValue((entry["specials"] as? [String: Any])?["count"], forKey: "specialCount")
                let price = NSEntityDescription.insertNewObject(forEntityName: "PriceInfo", into: context)
                price.setValue((entry["price"] as? [String: Any])?["currency"], forKey: "priceCategory")
                venue.setValue(price, forKey: "priceInfo")
                let location = NSEntityDescription.insertNewObject(forEntityName: "Location", into: context)
                location.setValue((entry["location"] as? [String: Any])?["distance"], forKey: "distance")
                venue.setValue(location, forKey: "location")
            }
            try context.save()
        }
        return context
    }

    @Test func filterScreenNumbersMatchTheBook() throws {
        let context = try importedContext()
        for (price, expected) in [("$", 27), ("$$", 2), ("$$$", 1)] {
            let request = NSFetchRequest<NSNumber>(entityName: "Venue")
            request.resultType = .countResultType
            request.predicate = NSPredicate(format: "%K == %@", "priceInfo.priceCategory", price)
            #expect(try context.fetch(request).first?.intValue == expected)
        }
        let sumDeals = NSExpressionDescription()
        sumDeals.name = "sumDeals"
        sumDeals.expression = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "specialCount")])
        sumDeals.expressionResultType = .integer32AttributeType
        let deals = NSFetchRequest<NSDictionary>(entityName: "Venue")
        deals.resultType = .dictionaryResultType
        deals.propertiesToFetch = [sumDeals]
        #expect(try context.fetch(deals).first?["sumDeals"] as? Int == 12)

        let stored = try #require(context.persistentStoreCoordinator?.managedObjectModel.fetchRequestTemplate(forName: "FetchRequest"))
        #expect(try context.fetch(stored).count == 30)
    }
}
