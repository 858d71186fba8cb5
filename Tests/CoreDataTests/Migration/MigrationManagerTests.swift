import Foundation
import Testing
@testable import CoreData

/// What the policies below saw, kept in the manager's `userInfo` so tests running in parallel
/// keep separate logs.
final class MigrationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    private var progress: [Float] = []

    var steps: [String] { lock.withLock { entries } }
    var progressSeen: [Float] { lock.withLock { progress } }

    func record(_ step: String, _ manager: NSMigrationManager) {
        let value = manager.migrationProgress
        lock.withLock {
            entries.append(step)
            progress.append(value)
        }
    }

    static func of(_ manager: NSMigrationManager) -> MigrationLog? { manager.userInfo?["log"] as? MigrationLog }
}

/// Splits `fullName` into `firstName` and `lastName`, recording each step it is called for.
final class SplitNamePolicy: NSEntityMigrationPolicy {
    override func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws {
        MigrationLog.of(manager)?.record("begin \(mapping.name!)", manager)
    }

    override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
        MigrationLog.of(manager)?.record("create \(mapping.name!)", manager)
        guard mapping.name == "PersonToPerson" else { return }
        let person = try #require(manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [sInstance]).first)
        let parts = (sInstance.value(forKey: "fullName") as? String ?? "").split(separator: " ", maxSplits: 1).map(String.init)
        person.setValue(parts.first, forKey: "firstName")
        person.setValue(parts.count > 1 ? parts[1] : nil, forKey: "lastName")
        if let limit = manager.userInfo?["cancelAfter"] as? Int, MigrationLog.of(manager)?.steps.filter({ $0.hasPrefix("create ") }).count == limit {
            manager.cancelMigrationWithError(NSError(domain: NSCocoaErrorDomain, code: NSMigrationCancelledError))
        }
    }

    override func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        MigrationLog.of(manager)?.record("endInstanceCreation \(mapping.name!)", manager)
    }

    override func createRelationships(forDestination dInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        try super.createRelationships(forDestination: dInstance, in: mapping, manager: manager)
        MigrationLog.of(manager)?.record("createRelationships \(mapping.name!)", manager)
    }

    override func endRelationshipCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        MigrationLog.of(manager)?.record("endRelationshipCreation \(mapping.name!)", manager)
    }

    override func performCustomValidation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        MigrationLog.of(manager)?.record("performCustomValidation \(mapping.name!)", manager)
    }

    /// Checks the lookups both ways while the migration's contexts are still open.
    override func end(_ mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        MigrationLog.of(manager)?.record("end \(mapping.name!)", manager)
        guard mapping.name == "PersonToPerson" else { return }
        let people = manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: nil)
        let sources = manager.sourceInstances(forEntityMappingName: mapping.name, destinationInstances: people)
        for (person, source) in zip(people, sources) {
            let joined = [person.value(forKey: "firstName"), person.value(forKey: "lastName")].compactMap { $0 as? String }.joined(separator: " ")
            MigrationLog.of(manager)?.record("lookup \(joined) <- \(source.value(forKey: "fullName") as? String ?? "?")", manager)
        }
        MigrationLog.of(manager)?.record("entities \(manager.sourceEntity(for: mapping)?.name ?? "") -> \(manager.destinationEntity(for: mapping)?.name ?? "")", manager)
    }
}

/// An error of the program's own type, to see that it comes back as it was given.
struct PolicyRefusal: Error, Equatable {
    let reason: String
}

/// A policy whose first step fails.
final class FailingMigrationPolicy: NSEntityMigrationPolicy {
    override func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws {
        throw NSError(domain: "FailingMigrationPolicy", code: 7)
    }
}

/// A policy that fails at the step `manager.userInfo["failAt"]` names, throwing (`"throw"`)
/// or cancelling (`"cancel"`) with a `PolicyRefusal`.
final class RefusingMigrationPolicy: NSEntityMigrationPolicy {
    private func fail(at step: String, _ manager: NSMigrationManager) throws {
        guard manager.userInfo?["failAt"] as? String == step else { return }
        if manager.userInfo?["how"] as? String == "cancel" {
            manager.cancelMigrationWithError(PolicyRefusal(reason: step))
        } else {
            throw PolicyRefusal(reason: step)
        }
    }

    override func createDestinationInstances(forSource sInstance: NSManagedObject, in mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
        try fail(at: "create", manager)
    }

    override func endRelationshipCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        try fail(at: "endRelationshipCreation", manager)
    }

    override func performCustomValidation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        try fail(at: "performCustomValidation", manager)
    }
}

/// Custom migrations through `NSMigrationManager` and `NSEntityMigrationPolicy`, on real
/// SQLite files: values computed by policies and expressions, relationships carried to the
/// new objects, Apple's order of steps, progress, cancellation and errors, and swapping the
/// migrated store in.
@Suite struct MigrationManagerTests {
    typealias Lightweight = LightweightMigrationTests

    /// Version 1 with `Person.name` called `fullName`: "Ann Lee" (dogs Rex, Fido), "Bob" (none), "Cy Young" (Spot).
    static func sourceModel() -> NSManagedObjectModel {
        Lightweight.version1 { person, _ in
            person.properties = [NSAttributeDescription(name: "fullName", type: .stringAttributeType)] + person.properties.filter { $0.name != "name" }
        }
    }

    static func seed(_ url: URL) throws {
        try Lightweight.seed(url, model: sourceModel(), nameKey: "fullName", people: ["Ann Lee", "Bob", "Cy Young"])
    }

    /// `Person(firstName, lastName, age, dogs) ⟷ Dog(name, owner)`.
    static func destinationModel() -> NSManagedObjectModel {
        Lightweight.version1 { person, _ in
            person.properties = [NSAttributeDescription(name: "firstName", type: .stringAttributeType),
                                 NSAttributeDescription(name: "lastName", type: .stringAttributeType)] + person.properties.filter { $0.name != "name" }
        }
    }

    static func propertyMapping(_ name: String, _ format: String) -> NSPropertyMapping {
        let mapping = NSPropertyMapping()
        mapping.name = name
        mapping.valueExpression = NSExpression(format: format)
        return mapping
    }

    /// People through `SplitNamePolicy` (age plus one, dogs through Apple's FUNCTION form);
    /// dogs with upper-cased names and their owner through a plain `$source.owner`.
    static func mappingModel(policy: String = "SplitNamePolicy") -> NSMappingModel {
        let people = NSEntityMapping()
        people.name = "PersonToPerson"
        people.mappingType = .transformEntityMappingType
        people.sourceEntityName = "Person"
        people.destinationEntityName = "Person"
        people.entityMigrationPolicyClassName = policy
        people.attributeMappings = [propertyMapping("age", "$source.age + 1")]
        people.relationshipMappings = [propertyMapping("dogs", #"FUNCTION($manager, "destinationInstancesForEntityMappingName:sourceInstances:", "DogToDog", $source.dogs)"#)]
        let dogs = NSEntityMapping()
        dogs.name = "DogToDog"
        dogs.mappingType = .transformEntityMappingType
        dogs.sourceEntityName = "Dog"
        dogs.destinationEntityName = "Dog"
        dogs.entityMigrationPolicyClassName = policy == "SplitNamePolicy" ? "SplitNamePolicy" : nil
        dogs.attributeMappings = [propertyMapping("name", #"FUNCTION($source.name, "uppercaseString")"#)]
        dogs.relationshipMappings = [propertyMapping("owner", "$source.owner")]
        let model = NSMappingModel()
        model.entityMappings = [people, dogs]
        return model
    }

    static func manager(log: MigrationLog = MigrationLog()) -> NSMigrationManager {
        let manager = NSMigrationManager(sourceModel: sourceModel(), destinationModel: destinationModel())
        manager.userInfo = ["log": log]
        return manager
    }

    static func migrate(_ manager: NSMigrationManager, _ source: URL, to destination: URL, mapping: NSMappingModel = mappingModel()) throws {
        try manager.migrateStore(from: source, sourceType: NSSQLiteStoreType, options: nil, with: mapping,
                                 toDestinationURL: destination, destinationType: NSSQLiteStoreType, destinationOptions: nil)
    }

    /// The migrated store's people as "first|last|age|dogs", and dogs as "name|owner's first name".
    static func contents(_ context: NSManagedObjectContext) throws -> (people: [String], dogs: [String]) {
        let people = try Lightweight.fetch("Person", context, sortedBy: "firstName").map { person in
            let fields = [person.value(forKey: "firstName") as? String ?? "-", person.value(forKey: "lastName") as? String ?? "-",
                          (person.value(forKey: "age") as? Int).map(String.init) ?? "-", Lightweight.names(person.value(forKey: "dogs")).joined(separator: ",")]
            return fields.joined(separator: "|")
        }
        let dogs = try Lightweight.fetch("Dog", context).map { dog in
            "\(dog.value(forKey: "name") as? String ?? "-")|\((dog.value(forKey: "owner") as? NSManagedObject)?.value(forKey: "firstName") as? String ?? "-")"
        }
        return (people, dogs)
    }

    static let expectedPeople = ["Ann|Lee|31|FIDO,REX", "Bob|-|-|", "Cy|Young|51|SPOT"]
    static let expectedDogs = ["FIDO|Ann", "REX|Ann", "SPOT|Cy"]

    // MARK: Tests

    /// A batch size of 2 makes the manager save and fault its objects out mid-pass.
    @Test(arguments: [500, 2])
    func aPolicySplitsANameAndRelationshipsFollowTheNewObjects(batchSize: Int) throws {
        let directory = TemporaryDirectory()
        let source = directory.file("Old.sqlite"), destination = directory.file("New.sqlite")
        try Self.seed(source)
        let before = try SQLiteShell.lines(source, ".dump")
        let log = MigrationLog()
        let manager = Self.manager(log: log)
        manager.batchSize = batchSize
        try Self.migrate(manager, source, to: destination)
        let context = try makeContainer(model: Self.destinationModel(), storeURL: destination).viewContext
        let contents = try Self.contents(context)
        #expect(contents.people == Self.expectedPeople)
        #expect(contents.dogs == Self.expectedDogs)
        // Progress only grows, stays below 1 while steps run, and ends at 1.
        let seen = log.progressSeen
        #expect(seen == seen.sorted())
        #expect(seen.first! < 0.2 && seen.last! < 1 && seen.last! > 0.6)
        #expect(manager.migrationProgress == 1)
        #expect(try SQLiteShell.lines(source, ".dump") == before)
    }

    @Test func policyStepsRunInApplesOrderAndLookupsWorkBothWays() throws {
        let directory = TemporaryDirectory()
        let source = directory.file("Old.sqlite")
        try Self.seed(source)
        let log = MigrationLog()
        try Self.migrate(Self.manager(log: log), source, to: directory.file("New.sqlite"))
        let steps = log.steps.filter { !$0.hasPrefix("lookup") && !$0.hasPrefix("entities") }
        func each(_ step: String, _ count: Int) -> [String] { Array(repeating: step, count: count) }
        let expected = ["begin PersonToPerson"] + each("create PersonToPerson", 3) + ["endInstanceCreation PersonToPerson",
                        "begin DogToDog"] + each("create DogToDog", 3) + ["endInstanceCreation DogToDog"]
            + each("createRelationships PersonToPerson", 3) + ["endRelationshipCreation PersonToPerson"]
            + each("createRelationships DogToDog", 3) + ["endRelationshipCreation DogToDog",
               "performCustomValidation PersonToPerson", "end PersonToPerson", "performCustomValidation DogToDog", "end DogToDog"]
        #expect(steps == expected)
        let lookups = log.steps.filter { $0.hasPrefix("lookup") && $0.contains("Lee") || $0.contains("<- Bob") }
        #expect(lookups.sorted() == ["lookup Ann Lee <- Ann Lee", "lookup Bob <- Bob"])
        #expect(log.steps.contains("entities Person -> Person"))
    }

    @Test func cancellingThrowsTheGivenErrorAndLeavesNoDestination() throws {
        let directory = TemporaryDirectory()
        let source = directory.file("Old.sqlite"), destination = directory.file("New.sqlite")
        try Self.seed(source)
        let log = MigrationLog()
        let manager = Self.manager(log: log)
        manager.userInfo?["cancelAfter"] = 2
        let error = try #require(throws: NSError.self) { try Self.migrate(manager, source, to: destination) }
        #expect(error.code == NSMigrationCancelledError)
        #expect(log.steps.filter { $0.hasPrefix("create ") }.count == 2)
        for suffix in ["", "-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: destination.path + suffix))
        }
        #expect(try Lightweight.fetch("Person", makeContainer(model: Self.sourceModel(), storeURL: source).viewContext, sortedBy: "fullName").count == 3)
    }

    @Test func aPolicysErrorIsThrownUnchangedAndAMissingPolicyClassFailsWith134110() throws {
        let directory = TemporaryDirectory()
        let source = directory.file("Old.sqlite"), destination = directory.file("New.sqlite")
        try Self.seed(source)
        let failed = try #require(throws: NSError.self) { try Self.migrate(Self.manager(), source, to: destination, mapping: Self.mappingModel(policy: "FailingMigrationPolicy")) }
        #expect(failed.domain == "FailingMigrationPolicy" && failed.code == 7)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        let missing = try #require(throws: NSError.self) { try Self.migrate(Self.manager(), source, to: destination, mapping: Self.mappingModel(policy: "NoSuchMigrationPolicy")) }
        #expect(missing.code == NSMigrationError)
        #expect((missing.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == NSEntityMigrationPolicyError)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    /// An error of any type, thrown by a step of any pass or handed to
    /// `cancelMigrationWithError(_:)`, is what `migrateStore` throws.
    @Test(arguments: ["throw", "cancel"], ["create", "endRelationshipCreation", "performCustomValidation"])
    func anErrorAPolicyThrowsOrCancelsWithIsThrownAsItIs(how: String, step: String) throws {
        let directory = TemporaryDirectory()
        let source = directory.file("Old.sqlite"), destination = directory.file("New.sqlite")
        try Self.seed(source)
        let manager = Self.manager()
        manager.userInfo?["failAt"] = step
        manager.userInfo?["how"] = how
        #expect(throws: PolicyRefusal(reason: step)) {
            try Self.migrate(manager, source, to: destination, mapping: Self.mappingModel(policy: "RefusingMigrationPolicy"))
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    /// A source expression chooses the instances: here through Apple's fetch-request function.
    @Test func aSourceExpressionSelectsTheInstancesToMigrate() throws {
        let directory = TemporaryDirectory()
        let source = directory.file("Old.sqlite"), destination = directory.file("New.sqlite")
        try Self.seed(source)
        let mapping = Self.mappingModel()
        mapping.entityMappings[0].sourceExpression = NSExpression(format: #"FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "Person", "age > 35")"#)
        try Self.migrate(Self.manager(), source, to: destination, mapping: mapping)
        let contents = try Self.contents(makeContainer(model: Self.destinationModel(), storeURL: destination).viewContext)
        #expect(contents.people == ["Cy|Young|51|SPOT"])
        #expect(contents.dogs == ["FIDO|-", "REX|-", "SPOT|Cy"])
    }

    /// Apple's recipe: migrate to a new file, replace the old store with it, destroy the new
    /// file; the old URL then opens with the new model as it is, without migrating again.
    @Test func theMigratedStoreReplacesTheOldOneAndOpensWithTheNewModel() throws {
        let directory = TemporaryDirectory()
        let source = directory.file("Old.sqlite"), destination = directory.file("New.sqlite")
        try Self.seed(source)
        try Self.migrate(Self.manager(), source, to: destination)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.destinationModel())
        try coordinator.replacePersistentStore(at: source, destinationOptions: nil, withPersistentStoreFrom: destination, sourceOptions: nil, type: .sqlite)
        try coordinator.destroyPersistentStore(at: destination, type: .sqlite)
        // As on Apple platforms, the destroyed file stays, emptied.
        #expect(try SQLiteShell.lines(destination, "SELECT COUNT(*) FROM sqlite_master") == ["0"])
        let version = try Lightweight.schemaVersion(source)
        let contents = try Self.contents(makeContainer(model: Self.destinationModel(), storeURL: source).viewContext)
        #expect(contents.people == Self.expectedPeople)
        #expect(contents.dogs == Self.expectedDogs)
        #expect(try Lightweight.schemaVersion(source) == version)
    }

    /// Automatic migration handed a mapping SQL cannot run migrates object by object into a
    /// file beside the store and renames it into place, leaving nothing else behind.
    @Test func aMappingSQLCannotRunMigratesByObjectsAndReplacesTheStoreFile() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Store.sqlite")
        try Self.seed(url)
        let store = SQLiteStore(persistentStoreCoordinator: nil, configurationName: nil, at: url, options: nil)
        let metadata = try SQLiteStore.storedMetadata(at: url)
        try store.run(Self.mappingModel(), onStoreAt: url.path, metadata: metadata, from: Self.sourceModel(), to: Self.destinationModel())
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains("migrating") }
        #expect(leftovers.isEmpty)
        let contents = try Self.contents(makeContainer(model: Self.destinationModel(), storeURL: url).viewContext)
        #expect(contents.people == Self.expectedPeople)
        #expect(contents.dogs == Self.expectedDogs)
    }

    @Test func functionExpressionsParseAndPrintInApplesForm() throws {
        let expression = NSExpression(format: #"FUNCTION(name, "stringByAppendingString:", "!")"#)
        #expect(expression.description == #"FUNCTION(name, "stringByAppendingString:", "!")"#)
        #expect(expression.expressionValue(with: ["name": "Rex"], context: nil) as? String == "Rex!")
        #expect(NSExpression(format: #"FUNCTION(name, "uppercaseString")"#).expressionValue(with: ["name": "Rex"], context: nil) as? String == "REX")
    }
}
