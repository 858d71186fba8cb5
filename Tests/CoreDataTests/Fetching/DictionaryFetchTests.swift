import CoreData
import Foundation
import Testing

/// Dictionary results: grouped aggregates, HAVING, DISTINCT, key paths through to-one
/// relationships, typed values, Swift-computed statistics and paging, on both stores.
@Suite struct DictionaryFetchTests {
    let directory = TemporaryDirectory()
    let seed = BubbleTeaFixture.venues

    func context(_ storeType: String) throws -> NSManagedObjectContext {
        try BubbleTeaFixture.container(in: directory, type: storeType).viewContext
    }

    func describe(_ name: String, _ function: String, _ keyPath: String, _ type: NSAttributeType = .undefinedAttributeType) -> NSExpressionDescription {
        let description = NSExpressionDescription()
        description.name = name
        description.expression = NSExpression(forFunction: function, arguments: [NSExpression(forKeyPath: keyPath)])
        description.expressionResultType = type
        return description
    }

    func dictionaryRequest(_ properties: [Any]) -> NSFetchRequest<NSDictionary> {
        let request = NSFetchRequest<NSDictionary>(entityName: "Venue")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = properties
        return request
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func groupingByCategoryComputesEachAggregatePerGroup(storeType: String) throws {
        let context = try context(storeType)
        let request = dictionaryRequest(["category.name", describe("venues", "count:", "name"),
                                         describe("deals", "sum:", "specialCount"), describe("farthest", "max:", "location.distance")])
        request.propertiesToGroupBy = ["category.name"]
        request.sortDescriptors = [NSSortDescriptor(key: "category.name", ascending: true)]
        let results = try context.fetch(request)

        let groups = Dictionary(grouping: seed, by: \.category)
        #expect(results.map { $0["category.name"] as? String } == groups.keys.sorted())
        for result in results {
            let members = try #require(groups[result["category.name"] as? String ?? ""])
            #expect(result["venues"] as? Int == members.count)
            #expect(result["deals"] as? Int == Int(members.map(\.specialCount).reduce(0, +)))
            #expect(result["farthest"] as? Float == members.map(\.distance).max())
        }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func havingKeepsTheGroupsWhoseAggregateMatches(storeType: String) throws {
        let context = try context(storeType)
        let request = dictionaryRequest(["category.name", describe("venues", "count:", "name", .integer64AttributeType)])
        request.propertiesToGroupBy = ["category.name"]
        request.havingPredicate = NSPredicate(format: "venues > %d", 7)
        request.sortDescriptors = [NSSortDescriptor(key: "category.name", ascending: false)]
        let expected = Dictionary(grouping: seed, by: \.category).filter { $0.value.count > 7 }.keys.sorted(by: >)
        #expect(expected.count == 2)
        #expect(try context.fetch(request).map { $0["category.name"] as? String } == expected)

        request.havingPredicate = NSPredicate(format: "venues > %d AND category.name != %@", 7, "Café")
        #expect(try context.fetch(request).map { $0["category.name"] as? String } == ["Bubble Tea Shop"])
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func havingNamesAnExpressionDescriptionAsAVariable(storeType: String) throws {
        let context = try context(storeType)
        let request = dictionaryRequest(["category.name", describe("count", "count:", "name", .integer64AttributeType)])
        request.propertiesToGroupBy = ["category.name"]
        request.havingPredicate = NSPredicate(format: "$count > %d", 7)
        request.sortDescriptors = [NSSortDescriptor(key: "category.name", ascending: true)]
        let expected = Dictionary(grouping: seed, by: \.category).filter { $0.value.count > 7 }.keys.sorted()
        #expect(expected.count == 2)
        #expect(try context.fetch(request).map { $0["category.name"] as? String } == expected)
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func objectIDInPropertiesToFetchReturnsEachRowsID(storeType: String) throws {
        let context = try context(storeType)
        let request = dictionaryRequest(["objectID", "name"])
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let results = try context.fetch(request)
        #expect(results.count == seed.count)
        for result in results {
            let id = try #require(result["objectID"] as? NSManagedObjectID)
            #expect(context.object(with: id).value(forKey: "name") as? String == result["name"] as? String)
        }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func sortingByAnAggregateNameOrdersTheGroups(storeType: String) throws {
        let context = try context(storeType)
        let request = dictionaryRequest(["priceInfo.priceCategory", describe("venues", "count:", "name")])
        request.propertiesToGroupBy = ["priceInfo.priceCategory"]
        request.sortDescriptors = [NSSortDescriptor(key: "venues", ascending: true)]
        let results = try context.fetch(request)
        #expect(results.map { $0["priceInfo.priceCategory"] as? String } == ["$$$", "$$", "$"])
        #expect(results.map { $0["venues"] as? Int } == [1, 2, 27])
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func distinctResultsDropRepeatedDictionaries(storeType: String) throws {
        let context = try context(storeType)
        let request = dictionaryRequest(["priceInfo.priceCategory"])
        request.returnsDistinctResults = true
        request.sortDescriptors = [NSSortDescriptor(key: "priceInfo.priceCategory", ascending: true)]
        #expect(try context.fetch(request).map { $0["priceInfo.priceCategory"] as? String } == ["$", "$$", "$$$"])
        request.returnsDistinctResults = false
        #expect(try context.fetch(request).count == 30)
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func relationshipsComeBackAsObjectIDsAndAttributesWithTheirTypes(storeType: String) throws {
        let context = try context(storeType)
        let entity = try #require(context.persistentStoreCoordinator?.managedObjectModel.entitiesByName["Venue"])
        let nameAttribute = try #require(entity.attributesByName["name"])
        let request = dictionaryRequest([nameAttribute, "category", "specialCount", "favorite", "location.distance"])
        request.predicate = NSPredicate(format: "name == %@", "Kumquat Café")
        let result = try #require(try context.fetch(request).first)
        #expect(result["name"] as? String == "Kumquat Café")
        #expect(result["specialCount"] as? Int == 2)
        #expect(result["favorite"] as? Bool == false)
        #expect(result["location.distance"] as? Float == seed[10].distance)

        let venueRequest: NSFetchRequest<BubbleTeaVenue> = BubbleTeaVenue.fetchRequest()
        venueRequest.predicate = request.predicate
        let categoryID = context.performAndWait { try? context.fetch(venueRequest).first?.category?.objectID }
        #expect(result["category"] as? NSManagedObjectID == categoryID)
        #expect(categoryID != nil)
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func aggregatesReturnTheTypesTheyDeclare(storeType: String) throws {
        let context = try context(storeType)
        let now = NSExpressionDescription()
        now.name = "now"
        now.expression = NSExpression(forFunction: "now", arguments: [])
        now.expressionResultType = .dateAttributeType
        let request = dictionaryRequest([describe("average", "average:", "specialCount", .doubleAttributeType),
                                         describe("first", "min:", "name", .stringAttributeType),
                                         describe("deals", "sum:", "specialCount"),
                                         describe("venues", "count:", "name", .doubleAttributeType), now])
        let before = Date()
        let result = try #require(try context.fetch(request).first)
        #expect(result["average"] as? Double == 0.4)
        #expect(result["first"] as? String == seed.map(\.name).min())
        #expect(result["deals"] as? Int == 12)
        #expect((result["venues"] as? NSNumber)?.doubleValue == 30)
        let stamped = try #require(result["now"] as? Date)
        #expect(stamped.timeIntervalSince(before) > -1 && stamped.timeIntervalSince(before) < 60)
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func medianModeAndStandardDeviationAreComputedOverTheFetchedColumn(storeType: String) throws {
        let context = try context(storeType)
        let request = dictionaryRequest(["priceInfo.priceCategory", describe("median", "median:", "location.distance"),
                                         describe("mode", "mode:", "stats.tipCount"), describe("spread", "stddev:", "specialCount"),
                                         describe("venues", "count:", "name")])
        request.propertiesToGroupBy = ["priceInfo.priceCategory"]
        request.sortDescriptors = [NSSortDescriptor(key: "priceInfo.priceCategory", ascending: true)]
        let results = try context.fetch(request)
        #expect(results.count == 3)
        for result in results {
            let members = seed.filter { $0.price == result["priceInfo.priceCategory"] as? String }
            let distances = members.map { Double($0.distance) }.sorted()
            let middle = distances.count / 2
            let median = distances.count % 2 == 1 ? distances[middle] : (distances[middle - 1] + distances[middle]) / 2
            #expect((result["median"] as? NSNumber)?.doubleValue == median)
            let tips = Dictionary(grouping: members.map(\.tipCount), by: { $0 }).mapValues(\.count)
            let topCount = tips.values.max() ?? 0
            #expect(tips.filter { $0.value == topCount }.keys.map(Double.init).contains((result["mode"] as? NSNumber)?.doubleValue ?? -1))
            let specials = members.map { Double($0.specialCount) }
            let mean = specials.reduce(0, +) / Double(specials.count)
            let deviation = (specials.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(specials.count)).squareRoot()
            #expect(abs(((result["spread"] as? NSNumber)?.doubleValue ?? -1) - deviation) < 1e-9)
            #expect(result["venues"] as? Int == members.count)
        }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func arithmeticAndAbsApplyToEachRow(storeType: String) throws {
        let context = try context(storeType)
        let scaled = NSExpressionDescription()
        scaled.name = "scaled"
        scaled.expression = NSExpression(forFunction: "multiply:by:", arguments: [NSExpression(forKeyPath: "specialCount"), NSExpression(forConstantValue: 10)])
        let gap = NSExpressionDescription()
        gap.name = "gap"
        gap.expression = NSExpression(forFunction: "abs:", arguments: [
            NSExpression(forFunction: "from:subtract:", arguments: [NSExpression(forKeyPath: "specialCount"), NSExpression(forConstantValue: 3)]),
        ])
        let half = NSExpressionDescription()
        half.name = "half"
        half.expression = NSExpression(forFunction: "divide:by:", arguments: [NSExpression(forKeyPath: "location.distance"), NSExpression(forConstantValue: 2)])
        half.expressionResultType = .doubleAttributeType
        let request = dictionaryRequest(["name", scaled, gap, half])
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let results = try context.fetch(request)
        let expected = seed.sorted { $0.name < $1.name }
        #expect(results.map { $0["name"] as? String } == expected.map(\.name))
        #expect(results.map { $0["scaled"] as? Int } == expected.map { Int($0.specialCount) * 10 })
        #expect(results.map { $0["gap"] as? Int } == expected.map { abs(Int($0.specialCount) - 3) })
        #expect(results.map { $0["half"] as? Double } == expected.map { Double($0.distance) / 2 })
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func limitOffsetAndSortPageThroughTheRows(storeType: String) throws {
        let context = try context(storeType)
        let request = dictionaryRequest(["name"])
        request.sortDescriptors = [NSSortDescriptor(key: "location.distance", ascending: false)]
        request.fetchOffset = 5
        request.fetchLimit = 3
        let expected = seed.sorted { $0.distance > $1.distance }.map(\.name)[5..<8]
        #expect(try context.fetch(request).map { $0["name"] as? String } == Array(expected))
        #expect(try context.fetch(request).allSatisfy { $0.count == 1 })
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func unsavedChangesAreIgnoredUntilSaved(storeType: String) throws {
        let context = try context(storeType)
        let request = dictionaryRequest([describe("deals", "sum:", "specialCount")])
        let venue = BubbleTeaVenue(context: context)
        venue.name = "Unsaved Tea"
        venue.specialCount = 100
        #expect(try context.fetch(request).first?["deals"] as? Int == 12)
        let names = dictionaryRequest(["name"])
        #expect(try context.fetch(names).count == 30)
        try context.save()
        #expect(try context.fetch(request).first?["deals"] as? Int == 112)
        #expect(try context.fetch(names).count == 31)
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func nilValuesAreLeftOutOfTheDictionary(storeType: String) throws {
        let context = try context(storeType)
        let request = dictionaryRequest(["name", "phone"])
        request.predicate = NSPredicate(format: "name == %@", "Boba Lane")
        let result = try #require(try context.fetch(request).first)
        #expect(result.allKeys.compactMap { $0 as? String } == ["name"])
    }
}
