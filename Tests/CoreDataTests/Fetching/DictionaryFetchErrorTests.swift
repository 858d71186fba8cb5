import CoreData
import Foundation
import Testing

/// Bad dictionary fetches and batch updates throw an NSError and leave the store as it was.
@Suite struct DictionaryFetchErrorTests {
    let directory = TemporaryDirectory()

    func expression(_ name: String, _ function: String, _ arguments: [CoreData.NSExpression]) -> NSExpressionDescription {
        let description = NSExpressionDescription()
        description.name = name
        description.expression = NSExpression(forFunction: function, arguments: arguments)
        return description
    }

    /// The store's content as a fingerprint: every venue's name, deals and favourite flag.
    func fingerprint(_ context: NSManagedObjectContext) throws -> [String] {
        let request = NSFetchRequest<NSDictionary>(entityName: "Venue")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["name", "specialCount", "favorite"]
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        return try context.fetch(request).map { "\($0["name"] ?? "-") \($0["specialCount"] ?? "-") \($0["favorite"] ?? "-")" }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func malformedDictionaryFetchesThrowClearErrors(storeType: String) throws {
        let context = try BubbleTeaFixture.container(in: directory, type: storeType).viewContext
        let before = try fingerprint(context)
        let specialCount = NSExpression(forKeyPath: "specialCount")
        let cases: [(String, (NSFetchRequest<NSDictionary>) -> Void)] = [
            ("Unknown function", { $0.propertiesToFetch = [self.expression("x", "frobnicate:", [specialCount])] }),
            ("needs numbers", { $0.propertiesToFetch = [self.expression("x", "sum:", [NSExpression(forKeyPath: "name")])] }),
            ("needs numbers", { $0.propertiesToFetch = [self.expression("x", "add:to:", [NSExpression(forKeyPath: "name"), specialCount])] }),
            ("neither in propertiesToGroupBy nor an aggregate", {
                $0.propertiesToFetch = ["name", self.expression("venues", "count:", [specialCount])]
                $0.propertiesToGroupBy = ["category.name"]
            }),
            ("neither in propertiesToGroupBy nor an aggregate", {
                $0.propertiesToFetch = ["category.name", self.expression("deals", "abs:", [specialCount])]
                $0.propertiesToGroupBy = ["category.name"]
            }),
            ("beside an aggregate", { $0.propertiesToFetch = ["name", self.expression("venues", "count:", [specialCount])] }),
            ("havingPredicate needs propertiesToGroupBy", {
                $0.propertiesToFetch = [self.expression("venues", "count:", [specialCount])]
                $0.havingPredicate = NSPredicate(format: "venues > 1")
            }),
            ("not found", { $0.propertiesToFetch = ["colour"] }),
            ("to-many", { $0.propertiesToFetch = ["category.venues.name"] }),
            ("expected a name", { $0.propertiesToFetch = [42] }),
            ("nested", { $0.propertiesToFetch = [self.expression("x", "sum:", [NSExpression(forFunction: "max:", arguments: [specialCount])])] }),
        ]
        for (message, configure) in cases {
            let request = NSFetchRequest<NSDictionary>(entityName: "Venue")
            request.resultType = .dictionaryResultType
            configure(request)
            do {
                _ = try context.fetch(request)
                Issue.record("expected an error mentioning '\(message)'")
            } catch let error as NSError {
                #expect(error.domain == NSCocoaErrorDomain)
                #expect(error.localizedDescription.contains(message), "\(error.localizedDescription)")
            }
        }
        #expect(try fingerprint(context) == before)
        #expect(!context.hasChanges)
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func badBatchUpdateExpressionsThrowAndChangeNothing(storeType: String) throws {
        let context = try BubbleTeaFixture.container(in: directory, type: storeType).viewContext
        let before = try fingerprint(context)
        let specialCount = NSExpression(forKeyPath: "specialCount")
        let cases: [[AnyHashable: Any]] = [
            ["favorite": true, "specialCount": NSExpression(forFunction: "add:to:", arguments: [NSExpression(forKeyPath: "name"), 1])],
            ["favorite": true, "specialCount": NSExpression(forFunction: "frobnicate:", arguments: [specialCount])],
            ["favorite": true, "specialCount": NSExpression(forFunction: "sum:", arguments: [specialCount])],
            ["favorite": true, "name": specialCount],
            ["favorite": true, "specialCount": NSExpression(forKeyPath: "location.distance")],
            ["favorite": true, "specialCount": NSExpression(forConstantValue: "many")],
        ]
        for values in cases {
            let update = NSBatchUpdateRequest(entityName: "Venue")
            update.propertiesToUpdate = values
            #expect(throws: NSError.self, "\(values)") { try context.execute(update) }
        }
        #expect(try fingerprint(context) == before)
    }
}
