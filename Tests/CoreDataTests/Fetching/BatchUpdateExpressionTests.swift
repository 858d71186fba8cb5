import CoreData
import Foundation
import Testing

/// Batch updates whose new values are expressions over each row, computed by the store.
@Suite struct BatchUpdateExpressionTests {
    let directory = TemporaryDirectory()

    func deals(_ context: NSManagedObjectContext) throws -> [String: Int] {
        let request = NSFetchRequest<NSDictionary>(entityName: "Venue")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["name", "specialCount"]
        var result: [String: Int] = [:]
        for entry in try context.fetch(request) { result[entry["name"] as? String ?? ""] = entry["specialCount"] as? Int }
        return result
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func arithmeticOverTheRowUpdatesEachMatchingRow(storeType: String) throws {
        let context = try BubbleTeaFixture.container(in: directory, type: storeType).viewContext
        let before = try deals(context)
        let update = NSBatchUpdateRequest(entityName: "Venue")
        update.predicate = NSPredicate(format: "priceInfo.priceCategory == %@", "$$")
        update.propertiesToUpdate = [
            "specialCount": NSExpression(forFunction: "add:to:", arguments: [NSExpression(forKeyPath: "specialCount"), NSExpression(forConstantValue: 1)]),
        ]
        update.resultType = .updatedObjectsCountResultType
        #expect((try context.execute(update) as? NSBatchUpdateResult)?.result as? Int == 2)

        var expected = before
        for venue in BubbleTeaFixture.venues where venue.price == "$$" { expected[venue.name, default: 0] += 1 }
        #expect(try deals(context) == expected)
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func constantsKeyPathsAndNestedArithmeticMixWithPlainValues(storeType: String) throws {
        let context = try BubbleTeaFixture.container(in: directory, type: storeType).viewContext
        let update = NSBatchUpdateRequest(entityName: "Venue")
        update.predicate = NSPredicate(format: "name BEGINSWITH %@", "J")
        let doubledPlusThree = NSExpression(forFunction: "add:to:", arguments: [
            NSExpression(forFunction: "multiply:by:", arguments: [NSExpression(forKeyPath: "specialCount"), NSExpression(forConstantValue: 2)]),
            NSExpression(forConstantValue: 3),
        ])
        update.propertiesToUpdate = ["specialCount": doubledPlusThree, "phone": NSExpression(forConstantValue: "555-0100"), "favorite": true]
        _ = try context.execute(update)
        let request: NSFetchRequest<BubbleTeaVenue> = BubbleTeaVenue.fetchRequest()
        request.predicate = NSPredicate(format: "phone == %@", "555-0100")
        let changed = try context.fetch(request)
        #expect(context.performAndWait { changed.map(\.name) } == ["Jade Kettle"])
        #expect(context.performAndWait { changed.map(\.specialCount) } == [3])
        #expect(context.performAndWait { changed.map(\.favorite) } == [true])

        let copy = NSBatchUpdateRequest(entityName: "Venue")
        copy.propertiesToUpdate = ["phone": NSExpression(forKeyPath: "name")]
        _ = try context.execute(copy)
        let phones = NSFetchRequest<NSDictionary>(entityName: "Venue")
        phones.resultType = .dictionaryResultType
        phones.propertiesToFetch = ["name", "phone"]
        #expect(try context.fetch(phones).allSatisfy { $0["name"] as? String == $0["phone"] as? String })
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func divisionStoredInAnIntegerAttributeTruncatesInBothStores(storeType: String) throws {
        let context = try BubbleTeaFixture.container(in: directory, type: storeType).viewContext
        let update = NSBatchUpdateRequest(entityName: "Venue")
        update.predicate = NSPredicate(format: "specialCount > 0")
        update.propertiesToUpdate = ["specialCount": NSExpression(forFunction: "divide:by:", arguments: [
            NSExpression(forFunction: "add:to:", arguments: [NSExpression(forKeyPath: "specialCount"), NSExpression(forConstantValue: 5)]),
            NSExpression(forConstantValue: 2),
        ])]
        _ = try context.execute(update)
        #expect(Set(try deals(context).values) == [0, 3], "(2 + 5) / 2 is 3.5, stored as 3")
    }
}
