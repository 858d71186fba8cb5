import CoreData
import Foundation
import Testing

/// Offers `FUNCTION($entityPolicy, "firstWordOf:", …)` and `"restAfterFirstWordOf:"` to the
/// mapping's expressions, the way a policy answers selectors without Objective-C messaging.
final class NameFunctionsPolicy: NSEntityMigrationPolicy {
    override func performFunction(_ selector: String, arguments: [Any?]) throws -> Any? {
        let words = (arguments.first as? String ?? "").split(separator: " ", maxSplits: 1).map(String.init)
        switch selector {
        case "firstWordOf:": return words.first
        case "restAfterFirstWordOf:": return words.count > 1 ? words[1] : nil
        default: return try super.performFunction(selector, arguments: arguments)
        }
    }
}

/// The expressions Xcode's mapping editor writes into a mapping model evaluate: the entity
/// mapping's `FETCH(…)` source expression, `$source` property mappings, the manager's
/// `destinationInstancesForEntityMappingNamed:sourceInstances:` and `$entityPolicy` functions.
@Suite struct MappingExpressionTests {
    typealias Manager = MigrationManagerTests

    /// Xcode's source expression for the instances of `entity` that match `predicate`.
    static func xcodeSourceExpression(_ entity: String, _ predicate: String = "TRUEPREDICATE") -> CoreData.NSExpression {
        NSExpression(format: #"FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:" , "\#(entity)", "\#(predicate)"), $manager.sourceContext, NO)"#)
    }

    /// People and dogs as Xcode writes the mapping: names split by the policy's functions,
    /// dogs through Apple's `…MappingNamed:` selector, a dog's owner the same way.
    static func xcodeMappingModel(peoplePredicate: String = "TRUEPREDICATE", nameFunction: String = "firstWordOf:") -> NSMappingModel {
        let people = NSEntityMapping()
        people.name = "PersonToPerson"
        people.mappingType = .transformEntityMappingType
        people.sourceEntityName = "Person"
        people.destinationEntityName = "Person"
        people.entityMigrationPolicyClassName = "NameFunctionsPolicy"
        people.sourceExpression = xcodeSourceExpression("Person", peoplePredicate)
        people.attributeMappings = [
            Manager.propertyMapping("firstName", #"FUNCTION($entityPolicy, "\#(nameFunction)", $source.fullName)"#),
            Manager.propertyMapping("lastName", #"FUNCTION($entityPolicy, "restAfterFirstWordOf:", $source.fullName)"#),
            Manager.propertyMapping("age", "$source.age"),
        ]
        people.relationshipMappings = [Manager.propertyMapping("dogs",
            #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "DogToDog", $source.dogs)"#)]
        let dogs = NSEntityMapping()
        dogs.name = "DogToDog"
        dogs.mappingType = .transformEntityMappingType
        dogs.sourceEntityName = "Dog"
        dogs.destinationEntityName = "Dog"
        dogs.sourceExpression = xcodeSourceExpression("Dog")
        dogs.attributeMappings = [Manager.propertyMapping("name", "$source.name")]
        dogs.relationshipMappings = [Manager.propertyMapping("owner",
            #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PersonToPerson", $source.owner)"#)]
        let model = NSMappingModel()
        model.entityMappings = [people, dogs]
        return model
    }

    @Test func aMappingModelAsXcodeWritesItMigratesTheStore() throws {
        let directory = TemporaryDirectory()
        let source = directory.file("Old.sqlite"), destination = directory.file("New.sqlite")
        try Manager.seed(source)
        try Manager.migrate(Manager.manager(), source, to: destination, mapping: Self.xcodeMappingModel())
        let contents = try Manager.contents(makeContainer(model: Manager.destinationModel(), storeURL: destination).viewContext)
        #expect(contents.people == ["Ann|Lee|30|Fido,Rex", "Bob|-|-|", "Cy|Young|50|Spot"])
        #expect(contents.dogs == ["Fido|Ann", "Rex|Ann", "Spot|Cy"])
    }

    @Test func theFetchSourceExpressionSelectsTheInstancesItsPredicateMatches() throws {
        let directory = TemporaryDirectory()
        let source = directory.file("Old.sqlite"), destination = directory.file("New.sqlite")
        try Manager.seed(source)
        try Manager.migrate(Manager.manager(), source, to: destination, mapping: Self.xcodeMappingModel(peoplePredicate: "age > 35"))
        let contents = try Manager.contents(makeContainer(model: Manager.destinationModel(), storeURL: destination).viewContext)
        #expect(contents.people == ["Cy|Young|50|Spot"])
        #expect(contents.dogs == ["Fido|-", "Rex|-", "Spot|Cy"])
    }

    @Test func aFunctionThePolicyDoesNotAnswerFailsTheMigrationWith134170() throws {
        let directory = TemporaryDirectory()
        let source = directory.file("Old.sqlite"), destination = directory.file("New.sqlite")
        try Manager.seed(source)
        let error = try #require(throws: NSError.self) {
            try Manager.migrate(Manager.manager(), source, to: destination, mapping: Self.xcodeMappingModel(nameFunction: "noSuchFunction:"))
        }
        #expect(error.code == NSEntityMigrationPolicyError)
        #expect(error.localizedDescription.contains("noSuchFunction:"))
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test func fetchExpressionsParseAndPrintInApplesForm() throws {
        let expression = Self.xcodeSourceExpression("Person")
        #expect(expression.expressionType == CoreData.NSExpression.ExpressionType.fetchRequest)
        #expect(expression.description
                == #"FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "Person", "TRUEPREDICATE"), $manager.sourceContext, NO)"#)
        #expect(NSExpression(format: expression.description) == expression)
        // A key named `fetch` is still a key.
        #expect(NSExpression(format: "fetch").expressionValue(with: ["fetch": 3], context: nil) as? Int == 3)
    }

    @Test func aCountOnlyFetchCountsTheMatchingObjects() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Old.sqlite")
        try Manager.seed(url)
        let context = try makeContainer(model: Manager.sourceModel(), storeURL: url).viewContext
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Dog")
        let count = NSExpression(format: "FETCH(%@, %@, YES)", argumentArray: [request, context])
        #expect(count.expressionValue(with: nil, context: nil) as? Int == 3)
        let objects = NSExpression(format: "FETCH(%@, %@, NO)", argumentArray: [request, context])
        #expect((objects.expressionValue(with: nil, context: nil) as? [Any])?.count == 3)
    }
}
