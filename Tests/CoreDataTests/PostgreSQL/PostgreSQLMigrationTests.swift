#if canImport(CoreDataPostgreSQL)
@testable import CoreData
import CoreDataPostgreSQL
import Foundation
import Testing

extension PostgreSQLSuites {
    /// Lightweight migration on a real server through the public API, as on SQLite
    /// (LightweightMigrationTests, whose models and seed it shares): a schema written with one
    /// model opens with the next, its rows, links and object URIs kept; every failure leaves
    /// the old schema as it was.
    @Suite struct PostgreSQLMigrationTests {
        typealias Models = LightweightMigrationTests

        /// A fresh schema seeded with version 1's three people and three dogs.
        static func seededStore() throws -> (url: URL, uris: [String: URL]) {
            let url = try PostgreSQLTestServer.freshStoreURL()
            return (url, try Models.seed(url, model: Models.version1(), type: NSPostgreSQLStoreType))
        }

        static func open(_ url: URL, model: NSManagedObjectModel, options: [String: NSObject] = [:]) throws -> NSPersistentContainer {
            try makeContainer(model: model, storeURL: url, type: NSPostgreSQLStoreType, options: options)
        }

        /// Version 1's people and dogs are all there, as seeded.
        static func expectSeededRows(_ url: URL) throws {
            let context = try open(url, model: Models.version1()).viewContext
            let people = try Models.fetch("Person", context)
            #expect(people.map { $0.value(forKey: "name") as? String } == ["Ann", "Bob", "Cy"])
            #expect(people.map { $0.value(forKey: "age") as? Int } == [30, nil, 50])
            #expect(Models.names(people[0].value(forKey: "dogs")) == ["Fido", "Rex"])
            #expect(try Models.fetch("Dog", context).count == 3)
        }

        /// `name` renamed `fullName`, `age` removed, an optional `email` and a mandatory `score`
        /// (default 7) added, and a new entity, `Cat`.
        static func version2() -> NSManagedObjectModel {
            let cat = NSEntityDescription(name: "Cat", properties: [NSAttributeDescription(name: "name", type: .stringAttributeType)])
            return Models.version1(adding: [cat]) { person, _ in
                let fullName = NSAttributeDescription(name: "fullName", type: .stringAttributeType)
                fullName.renamingIdentifier = "name"
                person.properties = [fullName, person.propertiesByName["dogs"]!,
                                     NSAttributeDescription(name: "email", type: .stringAttributeType),
                                     NSAttributeDescription(name: "score", type: .integer32AttributeType, optional: false, defaultValue: 7)]
            }
        }

        @Test func aSchemaOfTheOldModelOpensWithTheNewKeepingRowsLinksAndURIs() throws {
            let (url, uris) = try Self.seededStore()
            // Twice: the second open finds the schema migrated.
            for _ in 0..<2 {
                let context = try Self.open(url, model: Self.version2()).viewContext
                let people = try Models.fetch("Person", context, sortedBy: "fullName")
                #expect(people.map { $0.value(forKey: "fullName") as? String } == ["Ann", "Bob", "Cy"])
                #expect(people.map { $0.value(forKey: "email") as? String } == [nil, nil, nil])
                #expect(people.map { $0.value(forKey: "score") as? Int } == [7, 7, 7])
                #expect(Models.names(people[0].value(forKey: "dogs")) == ["Fido", "Rex"])
                #expect(try Models.fetch("Cat", context).isEmpty)
                try Models.expectURIsStillNameTheirObjects(uris, in: context)
            }
        }

        /// An entity renamed and an attribute whose type changes (with our conversion option)
        /// cannot be altered in place: their tables are rebuilt, their rows copied with their keys.
        @Test func rebuiltTablesKeepTheirRowsKeysAndLinks() throws {
            let (url, uris) = try Self.seededStore()
            let version2 = Models.version1 { person, dog in
                (person.propertiesByName["age"] as! NSAttributeDescription).attributeType = .stringAttributeType
                (person.propertiesByName["dogs"] as! NSRelationshipDescription).destinationEntityName = "Hound"
                dog.name = "Hound"
                dog.renamingIdentifier = "Dog"
            }
            let converting: [String: NSObject] = [NSInferAttributeTypeConversionsOption: true as NSNumber]
            let context = try Self.open(url, model: version2, options: converting).viewContext
            let people = try Models.fetch("Person", context)
            #expect(people.map { $0.value(forKey: "age") as? String } == ["30", nil, "50"])
            #expect(people.map { Models.names($0.value(forKey: "dogs")) } == [["Fido", "Rex"], [], ["Spot"]])
            let hounds = try Models.fetch("Hound", context)
            #expect(hounds.map { ($0.value(forKey: "owner") as? NSManagedObject)?.value(forKey: "name") as? String } == ["Ann", "Ann", "Cy"])
            // The people's (a dog's URI names the entity it no longer is).
            try Models.expectURIsStillNameTheirObjects(uris.filter { ["Ann", "Bob", "Cy"].contains($0.key) }, in: context)
            let max = NSEntityDescription.insertNewObject(forEntityName: "Hound", into: context)
            max.setValue("Max", forKey: "name")
            max.setValue(people[1], forKey: "owner")
            try context.save()
            let reader = try Self.open(url, model: version2, options: converting).viewContext
            #expect(Models.names(try Models.fetch("Person", reader)[1].value(forKey: "dogs")) == ["Max"])
        }

        @Test func newObjectsAfterAMigrationTakeFreshKeys() throws {
            let (url, uris) = try Self.seededStore()
            let context = try Self.open(url, model: Self.version2()).viewContext
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            person.setValue("Dee", forKey: "fullName")
            let cat = NSEntityDescription.insertNewObject(forEntityName: "Cat", into: context)
            cat.setValue("Tom", forKey: "name")
            try context.save()
            #expect(!uris.values.contains(person.objectID.uriRepresentation()))
            let reader = try Self.open(url, model: Self.version2()).viewContext
            #expect(try Models.fetch("Person", reader, sortedBy: "fullName").map { $0.value(forKey: "fullName") as? String } == ["Ann", "Bob", "Cy", "Dee"])
            #expect(try Models.fetch("Cat", reader).map { $0.value(forKey: "name") as? String } == ["Tom"])
        }

        /// Two coordinators opening the old schema at once: one migrates, the other waits for
        /// it and opens the migrated schema; neither fails and no row is lost or doubled.
        @Test func twoCoordinatorsOpeningAtOnceBothOpenTheMigratedSchema() throws {
            let (url, _) = try Self.seededStore()
            let results = Locked<[Result<Int, any Error>]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                let result = Result { try Models.fetch("Person", Self.open(url, model: Self.version2()).viewContext, sortedBy: "fullName").count }
                results.withLock { $0.append(result) }
            }
            #expect(try results.withLock { $0 }.map { try $0.get() } == [3, 3])
        }

        // MARK: Failures

        /// The schema keeps a copy of its model, so a model built in code that the program no
        /// longer has still migrates (every test above); without that copy: 134130.
        @Test func withoutItsOwnModelCopyASchemaOfAnUnknownModelFailsWith134130() throws {
            let (url, _) = try Self.seededStore()
            let connection = try #require(PostgreSQLDriver.connector).connect(to: try PostgreSQLEndpoint(url: url))
            defer { connection.close() }
            _ = try connection.execute("DROP TABLE Z_MODELCACHE", [])
            let error = try #require(throws: NSError.self) { try Self.open(url, model: Self.version2()) }
            #expect(error.code == NSMigrationMissingSourceModelError)
            try Self.expectSeededRows(url)
        }

        @Test func aChangeThatCannotBeInferredFailsWith134140AndTheInferenceError() throws {
            let (url, _) = try Self.seededStore()
            let version2 = Models.version1 { person, _ in
                (person.propertiesByName["name"] as! NSAttributeDescription).attributeType = .dateAttributeType
            }
            let error = try #require(throws: NSError.self) { try Self.open(url, model: version2) }
            #expect(error.code == NSMigrationMissingMappingModelError)
            #expect((error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == NSInferredMappingModelError)
            try Self.expectSeededRows(url)
        }

        @Test func aMigrationThatFailsHalfWayFailsWith134110AndLeavesTheSchemaAsItWas() throws {
            let (url, _) = try Self.seededStore()
            // The tables are changed first; then Bob has no age, and a mandatory age without a
            // default cannot be filled in.
            let version2 = Models.version1 { person, dog in
                (person.propertiesByName["age"] as! NSAttributeDescription).isOptional = false
                person.properties += [NSAttributeDescription(name: "email", type: .stringAttributeType)]
                dog.properties += [NSAttributeDescription(name: "breed", type: .stringAttributeType)]
            }
            let error = try #require(throws: NSError.self) { try Self.open(url, model: version2) }
            #expect(error.code == NSMigrationError)
            #expect((error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == NSValidationMissingMandatoryPropertyError)
            try Self.expectSeededRows(url)
        }

        /// A new uniqueness constraint the existing rows break fails the migration at its last
        /// step, after every table was changed.
        @Test func aUniquenessConstraintTheRowsBreakFailsTheMigrationWith134110() throws {
            let url = try PostgreSQLTestServer.freshStoreURL()
            try Models.seed(url, model: Models.version1(), type: NSPostgreSQLStoreType, people: ["Ann", "Ann", "Cy"])
            let version2 = Models.version1 { person, _ in
                person.properties += [NSAttributeDescription(name: "email", type: .stringAttributeType)]
                person.uniquenessConstraints = [["name"]]
            }
            let error = try #require(throws: NSError.self) { try Self.open(url, model: version2) }
            #expect(error.code == NSMigrationError)
            #expect((error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == NSManagedObjectConstraintMergeError)
            let context = try Self.open(url, model: Models.version1()).viewContext
            #expect(try Models.fetch("Person", context).map { $0.value(forKey: "name") as? String } == ["Ann", "Ann", "Cy"])
            // The constraint alone failed it: the same change without it migrates.
            let unconstrained = Models.version1 { person, _ in person.properties += [NSAttributeDescription(name: "email", type: .stringAttributeType)] }
            #expect(try Models.fetch("Person", Self.open(url, model: unconstrained).viewContext).count == 3)
        }

        @Test func withAutomaticMigrationOffASchemaOfAnOlderModelFailsWith134100() throws {
            let (url, _) = try Self.seededStore()
            let version2 = Self.version2()
            let container = NSPersistentContainer(name: "Test", managedObjectModel: version2)
            let description = NSPersistentStoreDescription(url: url)
            description.type = NSPostgreSQLStoreType
            description.shouldMigrateStoreAutomatically = false
            container.persistentStoreDescriptions = [description]
            var loadError: NSError?
            container.loadPersistentStores { _, error in loadError = error as NSError? }
            #expect(loadError?.code == NSPersistentStoreIncompatibleVersionHashError)
            try Self.expectSeededRows(url)
            // The coordinator options Apple's code passes turn it on.
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: version2)
            _ = try coordinator.addPersistentStore(ofType: NSPostgreSQLStoreType, configurationName: nil, at: url, options: [
                NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true,
            ])
            #expect(coordinator.persistentStores.first?.metadata[NSStoreModelVersionHashesKey] as? [String: Data] == version2.entityVersionHashesByName)
        }
    }
}
#endif
