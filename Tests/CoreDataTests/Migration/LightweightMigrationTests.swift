import CoreData
import Foundation
import Testing

/// A store written with one model opens with the next, its rows, links and object URIs kept,
/// for each change lightweight migration infers; and it opens a second time without migrating.
@Suite struct LightweightMigrationTests {
    // MARK: Models

    /// `Person(name, age) ⟷ Dog(name)`: a person has many dogs, a dog one owner.
    static func version1(adding extra: [NSEntityDescription] = [], _ edit: (NSEntityDescription, NSEntityDescription) -> Void = { _, _ in }) -> NSManagedObjectModel {
        let person = NSEntityDescription(name: "Person", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSAttributeDescription(name: "age", type: .integer16AttributeType),
            NSRelationshipDescription(name: "dogs", destination: "Dog", toMany: true, inverse: "owner"),
        ])
        let dog = NSEntityDescription(name: "Dog", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSRelationshipDescription(name: "owner", destination: "Person", inverse: "dogs"),
        ])
        edit(person, dog)
        return NSManagedObjectModel(entities: [person, dog] + extra)
    }

    /// Three people (Ann 30, Bob nil age, Cy 50), Ann with dogs Rex and Fido, Cy with Spot;
    /// returns each object's URI by name. `people` renames the three, under `nameKey`.
    @discardableResult
    static func seed(_ url: URL, model: NSManagedObjectModel, type: String = NSSQLiteStoreType, nameKey: String = "name",
                     people: [String] = ["Ann", "Bob", "Cy"]) throws -> [String: URL] {
        let container = try makeContainer(model: model, storeURL: url, type: type)
        let context = container.viewContext
        var objects: [String: NSManagedObject] = [:]
        for (name, age) in zip(people, [30, nil, 50] as [Int?]) {
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            person.setValue(name, forKey: nameKey)
            person.setValue(age.map { NSNumber(value: $0) }, forKey: "age")
            objects[name] = person
        }
        for (name, owner) in [("Rex", people[0]), ("Fido", people[0]), ("Spot", people[2])] {
            let dog = NSEntityDescription.insertNewObject(forEntityName: "Dog", into: context)
            dog.setValue(name, forKey: "name")
            dog.setValue(objects[owner], forKey: "owner")
            objects[name] = dog
        }
        try context.save()
        return objects.mapValues { $0.objectID.uriRepresentation() }
    }

    static func fetch(_ entity: String, _ context: NSManagedObjectContext, sortedBy key: String = "name") throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.sortDescriptors = [NSSortDescriptor(key: key, ascending: true)]
        return try context.fetch(request)
    }

    static func names(_ objects: Any?) -> [String] {
        let members: [NSManagedObject] = ((objects as? NSSet)?.allObjects ?? (objects as? NSOrderedSet)?.array ?? []) as? [NSManagedObject] ?? []
        return members.compactMap { $0.value(forKey: "name") as? String }.sorted()
    }

    /// Each URI `seed` returned still finds its object, by name (`fullName` where renamed).
    static func expectURIsStillNameTheirObjects(_ uris: [String: URL], in context: NSManagedObjectContext) throws {
        let coordinator = try #require(context.persistentStoreCoordinator)
        for (name, uri) in uris {
            let id = try #require(coordinator.managedObjectID(forURIRepresentation: uri))
            let object = try context.existingObject(with: id)
            let key = object.entity.propertiesByName["fullName"] == nil ? "name" : "fullName"
            #expect(object.value(forKey: key) as? String == name)
        }
    }

    /// SQLite's schema version of the file: it moves on every schema change, so an open that
    /// did not migrate leaves it alone.
    static func schemaVersion(_ url: URL) throws -> String {
        try SQLiteShell.lines(url, "PRAGMA schema_version").joined()
    }

    /// Opens `url` with `model` twice; the second open must not change the schema.
    static func openTwice(_ url: URL, model: NSManagedObjectModel, options: [String: NSObject] = [:],
                          check: (NSManagedObjectContext) throws -> Void) throws {
        let first = try makeContainer(model: model, storeURL: url, options: options)
        try check(first.viewContext)
        let version = try schemaVersion(url)
        let second = try makeContainer(model: model, storeURL: url, options: options)
        try check(second.viewContext)
        #expect(try schemaVersion(url) == version)
    }

    // MARK: Attributes

    @Test func addingAnAttributeAndRenamingAnotherKeepsRowsLinksAndURIs() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Store.sqlite")
        let uris = try Self.seed(url, model: Self.version1())
        let version2 = Self.version1 { person, _ in
            let fullName = NSAttributeDescription(name: "fullName", type: .stringAttributeType)
            fullName.renamingIdentifier = "name"
            person.properties = [fullName, person.propertiesByName["age"]!, person.propertiesByName["dogs"]!,
                                 NSAttributeDescription(name: "email", type: .stringAttributeType),
                                 NSAttributeDescription(name: "score", type: .integer32AttributeType, optional: false, defaultValue: 7)]
        }
        try Self.openTwice(url, model: version2) { context throws in
            let people = try Self.fetch("Person", context, sortedBy: "fullName")
            #expect(people.map { $0.value(forKey: "fullName") as? String } == ["Ann", "Bob", "Cy"])
            #expect(people.map { $0.value(forKey: "age") as? Int } == [30, nil, 50])
            #expect(people.map { $0.value(forKey: "email") as? String } == [nil, nil, nil])
            #expect(people.map { $0.value(forKey: "score") as? Int } == [7, 7, 7])
            #expect(Self.names(people[0].value(forKey: "dogs")) == ["Fido", "Rex"])
            try Self.expectURIsStillNameTheirObjects(uris, in: context)
        }
    }

    /// Adding and renaming attributes changes the table with ALTER TABLE, without copying its
    /// rows: the new mandatory column carries its default in the schema instead of in each row.
    @Test func addingAndRenamingAttributesAltersTheTableInPlace() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Store.sqlite")
        try Self.seed(url, model: Self.version1())
        let rowIDs = try SQLiteShell.lines(url, "SELECT rowid || ':' || ZNAME FROM ZPERSON ORDER BY rowid")
        let version2 = Self.version1 { person, _ in
            let fullName = NSAttributeDescription(name: "fullName", type: .stringAttributeType)
            fullName.renamingIdentifier = "name"
            person.properties = [fullName, person.propertiesByName["age"]!, person.propertiesByName["dogs"]!,
                                 NSAttributeDescription(name: "score", type: .integer32AttributeType, optional: false, defaultValue: 7)]
        }
        _ = try makeContainer(model: version2, storeURL: url)
        let schema = try SQLiteShell.lines(url, "SELECT sql FROM sqlite_master WHERE name = 'ZPERSON'").joined()
        #expect(schema.contains("ZSCORE INTEGER DEFAULT 7"))
        #expect(try SQLiteShell.lines(url, "SELECT name FROM sqlite_master WHERE name LIKE '%MIGRATION_SOURCE%'").isEmpty)
        #expect(try SQLiteShell.lines(url, "SELECT rowid || ':' || ZFULLNAME FROM ZPERSON ORDER BY rowid") == rowIDs)
    }

    @Test func newObjectsAfterAMigrationTakeFreshKeys() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Store.sqlite")
        try Self.seed(url, model: Self.version1())
        let version2 = Self.version1 { person, _ in
            person.properties += [NSAttributeDescription(name: "email", type: .stringAttributeType)]
        }
        let container = try makeContainer(model: version2, storeURL: url)
        let context = container.viewContext
        let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
        person.setValue("Dee", forKey: "name")
        try context.save()
        let reopened = try makeContainer(model: version2, storeURL: url).viewContext
        #expect(try Self.fetch("Person", reopened).map { $0.value(forKey: "name") as? String } == ["Ann", "Bob", "Cy", "Dee"])
    }

    @Test func removingAnAttributeAndAnEntityAndAddingAnEntity() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Store.sqlite")
        try Self.seed(url, model: Self.version1())
        let person = NSEntityDescription(name: "Person", properties: [NSAttributeDescription(name: "name", type: .stringAttributeType)])
        let city = NSEntityDescription(name: "City", properties: [NSAttributeDescription(name: "name", type: .stringAttributeType)])
        try Self.openTwice(url, model: NSManagedObjectModel(entities: [person, city])) { context throws in
            #expect(try Self.fetch("Person", context).map { $0.value(forKey: "name") as? String } == ["Ann", "Bob", "Cy"])
            #expect(try Self.fetch("City", context).isEmpty)
        }
        let tables = try SQLiteShell.lines(url, "SELECT name FROM sqlite_master WHERE type = 'table'")
        #expect(!tables.contains("ZDOG"))
    }

    @Test func anOptionalAttributeMadeMandatoryTakesItsDefaultWhereNil() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Store.sqlite")
        try Self.seed(url, model: Self.version1())
        let version2 = Self.version1 { person, _ in
            let age = person.propertiesByName["age"] as! NSAttributeDescription
            age.isOptional = false
            age.defaultValue = 18
        }
        try Self.openTwice(url, model: version2) { context throws in
            #expect(try Self.fetch("Person", context).map { $0.value(forKey: "age") as? Int } == [30, 18, 50])
        }
    }

    /// Beyond Apple, and only when asked for.
    @Test func withOurOptionAttributeTypesChangeWhereTheValuesConvert() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Store.sqlite")
        try Self.seed(url, model: Self.version1())
        let asText = Self.version1 { person, _ in
            (person.propertiesByName["age"] as! NSAttributeDescription).attributeType = .stringAttributeType
        }
        let converting: [String: NSObject] = [NSInferAttributeTypeConversionsOption: true as NSNumber]
        try Self.openTwice(url, model: asText, options: converting) { context throws in
            #expect(try Self.fetch("Person", context).map { $0.value(forKey: "age") as? String } == ["30", nil, "50"])
        }
        let asDouble = Self.version1 { person, _ in
            (person.propertiesByName["age"] as! NSAttributeDescription).attributeType = .doubleAttributeType
        }
        let other = directory.file("Other.sqlite")
        try Self.seed(other, model: Self.version1())
        try Self.openTwice(other, model: asDouble, options: converting) { context throws in
            #expect(try Self.fetch("Person", context).map { $0.value(forKey: "age") as? Double } == [30, nil, 50])
        }
    }

    // MARK: Relationships and entities

    @Test func aOneToManyBecomesManyToManyAndKeepsItsLinks() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Store.sqlite")
        try Self.seed(url, model: Self.version1())
        let version2 = Self.version1 { person, dog in
            let owners = NSRelationshipDescription(name: "owners", destination: "Person", toMany: true, inverse: "dogs")
            owners.renamingIdentifier = "owner"
            dog.properties = [dog.propertiesByName["name"]!, owners]
            person.properties = [person.propertiesByName["name"]!, person.propertiesByName["age"]!,
                                 NSRelationshipDescription(name: "dogs", destination: "Dog", toMany: true, inverse: "owners")]
        }
        try Self.openTwice(url, model: version2) { context throws in
            let people = try Self.fetch("Person", context)
            #expect(people.map { Self.names($0.value(forKey: "dogs")) } == [["Fido", "Rex"], [], ["Spot"]])
            let dogs = try Self.fetch("Dog", context)
            #expect(dogs.map { Self.names($0.value(forKey: "owners")) } == [["Ann"], ["Ann"], ["Cy"]])
        }
    }

    @Test func aToManyBecomesToOneAndKeepsAMember() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Store.sqlite")
        try Self.seed(url, model: Self.version1())
        let version2 = Self.version1 { person, dog in
            let favourite = NSRelationshipDescription(name: "dogs", destination: "Dog", inverse: "owner")
            person.properties = [person.propertiesByName["name"]!, person.propertiesByName["age"]!, favourite]
        }
        try Self.openTwice(url, model: version2) { context throws in
            let people = try Self.fetch("Person", context)
            let dogs = people.map { ($0.value(forKey: "dogs") as? NSManagedObject)?.value(forKey: "name") as? String }
            #expect(dogs[1] == nil && dogs[2] == "Spot")
            #expect(["Fido", "Rex"].contains(dogs[0] ?? ""))
        }
    }

    @Test func renamingAnEntityKeepsItsRowsAndLinks() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Store.sqlite")
        try Self.seed(url, model: Self.version1())
        let owner = NSEntityDescription(name: "Owner", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSAttributeDescription(name: "age", type: .integer16AttributeType),
            NSRelationshipDescription(name: "dogs", destination: "Dog", toMany: true, inverse: "owner"),
        ])
        owner.renamingIdentifier = "Person"
        let dog = NSEntityDescription(name: "Dog", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSRelationshipDescription(name: "owner", destination: "Owner", inverse: "dogs"),
        ])
        try Self.openTwice(url, model: NSManagedObjectModel(entities: [owner, dog])) { context throws in
            let owners = try Self.fetch("Owner", context)
            #expect(owners.map { $0.value(forKey: "name") as? String } == ["Ann", "Bob", "Cy"])
            #expect(owners.map { Self.names($0.value(forKey: "dogs")) } == [["Fido", "Rex"], [], ["Spot"]])
        }
    }

    /// Dog and a new Cat entity gain a new parent, Animal: their two tables become one, and
    /// the cats' keys move past the dogs' so none collide; the dogs' URIs stay valid.
    @Test func aNewParentEntityGathersItsChildrenIntoOneTable() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Store.sqlite")
        let cat = NSEntityDescription(name: "Cat", properties: [NSAttributeDescription(name: "name", type: .stringAttributeType)])
        let sourceModel = Self.version1(adding: [cat])
        let uris = try Self.seed(url, model: sourceModel)
        do {
            let context = try makeContainer(model: sourceModel, storeURL: url).viewContext
            for name in ["Tom", "Kit"] {
                NSEntityDescription.insertNewObject(forEntityName: "Cat", into: context).setValue(name, forKey: "name")
            }
            try context.save()
        }
        let animal = NSEntityDescription(name: "Animal", properties: [NSAttributeDescription(name: "name", type: .stringAttributeType)])
        let dog = NSEntityDescription(name: "Dog", properties: [NSRelationshipDescription(name: "owner", destination: "Person", inverse: "dogs")])
        let newCat = NSEntityDescription(name: "Cat", properties: [])
        animal.subentities = [dog, newCat]
        let person = NSEntityDescription(name: "Person", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSAttributeDescription(name: "age", type: .integer16AttributeType),
            NSRelationshipDescription(name: "dogs", destination: "Dog", toMany: true, inverse: "owner"),
        ])
        let destination = NSManagedObjectModel(entities: [animal, dog, newCat, person])
        try Self.openTwice(url, model: destination) { context throws in
            #expect(try Self.fetch("Animal", context).map { $0.value(forKey: "name") as? String } == ["Fido", "Kit", "Rex", "Spot", "Tom"])
            #expect(try Self.fetch("Cat", context).map { $0.value(forKey: "name") as? String } == ["Kit", "Tom"])
            let dogs = try Self.fetch("Dog", context)
            #expect(dogs.map { ($0.value(forKey: "owner") as? NSManagedObject)?.value(forKey: "name") as? String } == ["Ann", "Ann", "Cy"])
            let coordinator = try #require(context.persistentStoreCoordinator)
            let rexURI = try #require(uris["Rex"])
            let rex = try context.existingObject(with: try #require(coordinator.managedObjectID(forURIRepresentation: rexURI)))
            #expect(rex.value(forKey: "name") as? String == "Rex")
        }
        #expect(try SQLiteShell.lines(url, "SELECT COUNT(DISTINCT Z_PK) FROM ZANIMAL") == ["5"])
    }

    @Test func aParentEntityRemovedLeavesEachChildItsOwnTable() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Store.sqlite")
        let animal = NSEntityDescription(name: "Animal", properties: [NSAttributeDescription(name: "name", type: .stringAttributeType)])
        let dog = NSEntityDescription(name: "Dog", properties: [])
        let cat = NSEntityDescription(name: "Cat", properties: [])
        animal.subentities = [dog, cat]
        let source = NSManagedObjectModel(entities: [animal, dog, cat])
        do {
            let context = try makeContainer(model: source, storeURL: url).viewContext
            for (entity, name) in [("Dog", "Rex"), ("Cat", "Tom"), ("Dog", "Fido")] {
                NSEntityDescription.insertNewObject(forEntityName: entity, into: context).setValue(name, forKey: "name")
            }
            try context.save()
        }
        let destination = NSManagedObjectModel(entities: ["Dog", "Cat"].map {
            NSEntityDescription(name: $0, properties: [NSAttributeDescription(name: "name", type: .stringAttributeType)])
        })
        try Self.openTwice(url, model: destination) { context throws in
            #expect(try Self.fetch("Dog", context).map { $0.value(forKey: "name") as? String } == ["Fido", "Rex"])
            #expect(try Self.fetch("Cat", context).map { $0.value(forKey: "name") as? String } == ["Tom"])
        }
    }

    // MARK: Finding the source model

    /// The store keeps a copy of its model, so a model built in code that no longer exists in
    /// the program still migrates; without that copy the migration has no source: 134130.
    @Test func withoutItsOwnModelCopyAStoreOfAnUnknownModelFailsWith134130() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Store.sqlite")
        try Self.seed(url, model: Self.version1())
        _ = try SQLiteShell.lines(url, "DROP TABLE Z_MODELCACHE")
        let before = try Data(contentsOf: url)
        let version2 = Self.version1 { person, _ in person.properties += [NSAttributeDescription(name: "email", type: .stringAttributeType)] }
        let error = try #require(throws: NSError.self) { try makeContainer(model: version2, storeURL: url) }
        #expect(error.code == NSMigrationMissingSourceModelError)
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aChangeThatCannotBeInferredFailsWith134140AndTheInferenceError() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Store.sqlite")
        try Self.seed(url, model: Self.version1())
        let before = try Data(contentsOf: url)
        let version2 = Self.version1 { person, _ in
            (person.propertiesByName["name"] as! NSAttributeDescription).attributeType = .dateAttributeType
        }
        let error = try #require(throws: NSError.self) { try makeContainer(model: version2, storeURL: url) }
        #expect(error.code == NSMigrationMissingMappingModelError)
        #expect((error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == NSInferredMappingModelError)
        #expect(try Data(contentsOf: url) == before)
        // The old model still opens it, every row intact.
        let reopened = try makeContainer(model: Self.version1(), storeURL: url)
        #expect(try Self.fetch("Person", reopened.viewContext).count == 3)
    }

    @Test func aMigrationThatFailsHalfWayFailsWith134110AndLeavesTheStoreAsItWas() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Store.sqlite")
        try Self.seed(url, model: Self.version1())
        let before = try SQLiteShell.lines(url, ".dump")
        // Bob has no age, and a mandatory age without a default cannot be filled in.
        let version2 = Self.version1 { person, _ in (person.propertiesByName["age"] as! NSAttributeDescription).isOptional = false }
        let error = try #require(throws: NSError.self) { try makeContainer(model: version2, storeURL: url) }
        #expect(error.code == NSMigrationError)
        #expect((error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == NSValidationMissingMandatoryPropertyError)
        #expect(try SQLiteShell.lines(url, ".dump") == before)
        let reopened = try makeContainer(model: Self.version1(), storeURL: url)
        #expect(try Self.fetch("Person", reopened.viewContext).count == 3)
    }

    @Test func withAutomaticMigrationOffAStoreOfAnOlderModelFailsWith134100() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Store.sqlite")
        try Self.seed(url, model: Self.version1())
        let version2 = Self.version1 { person, _ in person.properties += [NSAttributeDescription(name: "email", type: .stringAttributeType)] }
        let container = NSPersistentContainer(name: "Test", managedObjectModel: version2)
        let description = NSPersistentStoreDescription(url: url)
        description.shouldMigrateStoreAutomatically = false
        container.persistentStoreDescriptions = [description]
        var loadError: NSError?
        container.loadPersistentStores { _, error in loadError = error as NSError? }
        #expect(loadError?.code == NSPersistentStoreIncompatibleVersionHashError)
        // The coordinator options Apple's code passes turn it on.
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: version2)
        _ = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: [
            NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true,
        ])
        #expect(coordinator.persistentStores.first?.metadata[NSStoreModelVersionHashesKey] as? [String: Data] == version2.entityVersionHashesByName)
    }
}
