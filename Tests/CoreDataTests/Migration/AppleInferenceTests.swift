import CoreData
import Foundation
import Testing

/// Lightweight inference decides as Apple's: a new mandatory attribute without a default value
/// is inferred and fails only on a row left without a value; a change of attribute type is not
/// inferred, unless our `NSInferAttributeTypeConversionsOption` asks for it.
@Suite struct AppleInferenceTests {
    typealias Lightweight = LightweightMigrationTests

    /// Version 1 with an integer `score` added to `Person`, without a default value.
    static func withScore(optional: Bool) -> NSManagedObjectModel {
        Lightweight.version1 { person, _ in
            person.properties += [NSAttributeDescription(name: "score", type: .integer32AttributeType, optional: optional)]
        }
    }

    /// Version 1 with `Person.age` a string.
    static func ageAsText() -> NSManagedObjectModel {
        Lightweight.version1 { person, _ in (person.propertiesByName["age"] as! NSAttributeDescription).attributeType = .stringAttributeType }
    }

    @Test func aNewMandatoryAttributeWithoutADefaultIsInferred() throws {
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: Lightweight.version1(), destinationModel: Self.withScore(optional: false))
        let people = try #require(mapping.entityMappingsByName["PersonToPerson"])
        let score = try #require(people.attributeMappings?.first { $0.name == "score" })
        #expect(score.valueExpression == nil)
    }

    @Test func aNewMandatoryAttributeFailsWith134110OnlyWhenARowIsLeftWithoutAValue() throws {
        let directory = TemporaryDirectory()
        let withPeople = directory.file("People.sqlite")
        try Lightweight.seed(withPeople, model: Lightweight.version1())
        let before = try SQLiteShell.lines(withPeople, ".dump")
        let error = try #require(throws: NSError.self) { try makeContainer(model: Self.withScore(optional: false), storeURL: withPeople) }
        #expect(error.code == NSMigrationError)
        #expect((error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == NSValidationMissingMandatoryPropertyError)
        #expect(try SQLiteShell.lines(withPeople, ".dump") == before)

        // No person, so no row without a score: the store migrates.
        let dogsOnly = directory.file("Dogs.sqlite")
        do {
            let context = try makeContainer(model: Lightweight.version1(), storeURL: dogsOnly).viewContext
            NSEntityDescription.insertNewObject(forEntityName: "Dog", into: context).setValue("Rex", forKey: "name")
            try context.save()
        }
        let context = try makeContainer(model: Self.withScore(optional: false), storeURL: dogsOnly).viewContext
        #expect(try Lightweight.fetch("Dog", context).map { $0.value(forKey: "name") as? String } == ["Rex"])
    }

    /// A custom stage fills the values in its will-migrate handler, before its step makes the
    /// attribute required.
    @Test func aStagedMigrationFillsTheValuesBeforeTheAttributeBecomesRequired() throws {
        let directory = TemporaryDirectory()
        let optional = Self.withScore(optional: true), required = Self.withScore(optional: false)
        func stages(filling: Bool) -> [NSMigrationStage] {
            let stage = NSCustomMigrationStage(
                migratingFrom: NSManagedObjectModelReference(model: optional, versionChecksum: optional.versionChecksum),
                to: NSManagedObjectModelReference(model: required, versionChecksum: required.versionChecksum))
            stage.willMigrateHandler = { manager, _ in
                guard filling else { return }
                let context = try #require(manager.container?.viewContext)
                for (index, person) in try Lightweight.fetch("Person", context).enumerated() { person.setValue(index + 1, forKey: "score") }
                try context.save()
            }
            return [stage]
        }
        func open(_ url: URL, filling: Bool) throws -> NSPersistentContainer {
            try makeContainer(model: required, storeURL: url,
                              options: [NSPersistentStoreStagedMigrationManagerOptionKey: NSStagedMigrationManager(stages(filling: filling))])
        }
        let unfilled = directory.file("Unfilled.sqlite"), filled = directory.file("Filled.sqlite")
        try Lightweight.seed(unfilled, model: optional)
        try Lightweight.seed(filled, model: optional)
        let error = try #require(throws: NSError.self) { try open(unfilled, filling: false) }
        #expect(error.code == NSMigrationError)
        let context = try open(filled, filling: true).viewContext
        #expect(try Lightweight.fetch("Person", context).map { $0.value(forKey: "score") as? Int } == [1, 2, 3])
    }

    @Test func aChangeOfAttributeTypeIsNotInferredWithoutOurOption() throws {
        let error = try #require(throws: NSError.self) {
            try NSMappingModel.inferredMappingModel(forSourceModel: Lightweight.version1(), destinationModel: Self.ageAsText())
        }
        #expect(error.code == NSInferredMappingModelError)
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: Lightweight.version1(), destinationModel: Self.ageAsText(),
                                                              options: [NSInferAttributeTypeConversionsOption: true])
        #expect(mapping.entityMappingsByName["PersonToPerson"]?.attributeMappings?.first { $0.name == "age" }?.valueExpression != nil)
    }

    @Test func anAutomaticMigrationOfAChangedTypeFailsWith134140AndLeavesTheStore() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Store.sqlite")
        try Lightweight.seed(url, model: Lightweight.version1())
        let before = try SQLiteShell.lines(url, ".dump")
        let error = try #require(throws: NSError.self) { try makeContainer(model: Self.ageAsText(), storeURL: url) }
        #expect(error.code == NSMigrationMissingMappingModelError)
        #expect((error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == NSInferredMappingModelError)
        #expect(try SQLiteShell.lines(url, ".dump") == before)
        let converted = try makeContainer(model: Self.ageAsText(), storeURL: url,
                                          options: [NSInferAttributeTypeConversionsOption: true as NSNumber]).viewContext
        #expect(try Lightweight.fetch("Person", converted).map { $0.value(forKey: "age") as? String } == ["30", nil, "50"])
    }
}
