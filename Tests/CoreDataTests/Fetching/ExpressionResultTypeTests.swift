import CoreData
import Foundation
import Testing

/// `expressionResultType` decides the type, and so the value, a dictionary fetch returns for
/// an expression, whichever store computes it: an average declared integer is cut toward zero,
/// the same average declared double keeps its fraction.
@Suite struct ExpressionResultTypeTests {
    let directory = TemporaryDirectory()
    /// Tips whose average, 3.75, is not a whole number; their sum is 15.
    static let tips = [1, 2, 4, 8]

    func context(_ storeType: String) throws -> NSManagedObjectContext {
        try venueContainer(tips: Self.tips, in: directory, type: storeType).newBackgroundContext()
    }

    /// The value of the one dictionary of a fetch of `function` over every venue's tips, as `type`.
    func aggregate(_ function: String, as type: NSAttributeType, in context: NSManagedObjectContext) throws -> NSNumber? {
        let description = NSExpressionDescription()
        description.name = "value"
        description.expression = NSExpression(forFunction: function, arguments: [NSExpression(forKeyPath: "tips")])
        description.expressionResultType = type
        let request = NSFetchRequest<NSDictionary>(entityName: "Venue")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = [description]
        let results = try context.fetch(request)
        #expect(results.count == 1)
        return results.first?["value"] as? NSNumber
    }

    /// Whether a number holds a floating-point value, by its Objective-C type code ("d" or
    /// "f"); an integer's code ("c", "s", "i", "q"...) depends on its magnitude, not its type.
    func isFloatingPoint(_ number: NSNumber?) -> Bool? {
        number.map { ["d", "f"].contains(String(cString: $0.objCType)) }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func anAverageDeclaredIntegerIsCutTowardZero(storeType: String) throws {
        let context = try context(storeType)
        let average = try aggregate("average:", as: .integer32AttributeType, in: context)
        #expect(average?.intValue == 3)
        #expect(average?.doubleValue == 3)
        #expect(isFloatingPoint(average) == false)
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func anAverageDeclaredDoubleKeepsItsFraction(storeType: String) throws {
        let context = try context(storeType)
        let average = try aggregate("average:", as: .doubleAttributeType, in: context)
        #expect(average?.doubleValue == 3.75)
        #expect(isFloatingPoint(average) == true)
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func anUndeclaredAverageIsADoubleAndASumOfIntegersDeclaredDoubleIsOne(storeType: String) throws {
        let context = try context(storeType)
        let average = try aggregate("average:", as: .undefinedAttributeType, in: context)
        #expect(average?.doubleValue == 3.75)
        #expect(isFloatingPoint(average) == true)
        let sum = try aggregate("sum:", as: .doubleAttributeType, in: context)
        #expect(sum?.doubleValue == 15)
        #expect(isFloatingPoint(sum) == true)
        let integerSum = try aggregate("sum:", as: .integer64AttributeType, in: context)
        #expect(integerSum?.int64Value == 15)
        #expect(isFloatingPoint(integerSum) == false)
    }
}
