import CoreData
import Foundation
import Testing

/// A store moves through the stages of an `NSStagedMigrationManager`, with versions taken
/// from a versioned `.xcdatamodeld` as Xcode writes one.
@Suite struct StagedMigrationTests {
    /// `People.xcdatamodeld` with four versions of `Person`, V4 current:
    /// V1 `fullName`; V2 adds `nickname`; V3 adds `firstName` and `lastName`; V4 drops `fullName`.
    static func modelBundle() throws -> URL {
        let bundle = try ModelFiles.temporaryFolder().appendingPathComponent("People.xcdatamodeld", isDirectory: true)
        let attributes = [
            "V1": ["fullName"],
            "V2": ["fullName", "nickname"],
            "V3": ["fullName", "nickname", "firstName", "lastName"],
            "V4": ["nickname", "firstName", "lastName"],
        ]
        for (version, names) in attributes {
            let folder = bundle.appendingPathComponent("\(version).xcdatamodel", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let elements = names.map { "<attribute name=\"\($0)\" optional=\"YES\" attributeType=\"String\"/>" }.joined()
            try Data(ModelFiles.modelXML("<entity name=\"Person\">\(elements)</entity>").utf8).write(to: folder.appendingPathComponent("contents"))
        }
        let current = try PropertyListSerialization.data(fromPropertyList: ["_XCCurrentVersionName": "V4.xcdatamodel"], format: .xml, options: 0)
        try current.write(to: bundle.appendingPathComponent(".xccurrentversion"))
        return bundle
    }

    static func version(_ name: String, in bundle: URL) throws -> NSManagedObjectModel {
        try NSManagedObjectModel.load(contentsOf: bundle.appendingPathComponent("\(name).xcdatamodel"))
    }

    /// The error of opening `url` with the bundle's current model through `stages`, if any.
    static func loadError(of url: URL, currentModelIn bundle: URL, stages: [NSMigrationStage]) throws -> NSError? {
        let container = NSPersistentContainer(name: "People", managedObjectModel: try NSManagedObjectModel.load(contentsOf: bundle))
        let description = NSPersistentStoreDescription(url: url)
        description.setOption(NSStagedMigrationManager(stages), forKey: NSPersistentStoreStagedMigrationManagerOptionKey)
        container.persistentStoreDescriptions = [description]
        var loadError: NSError?
        container.loadPersistentStores { _, error in loadError = error as NSError? }
        return loadError
    }

    @Test func theBundleLoadsItsCurrentVersionAndEachVersionByItsOwnURL() throws {
        let bundle = try Self.modelBundle()
        let current = try NSManagedObjectModel.load(contentsOf: bundle)
        #expect(Set(current.entitiesByName["Person"]!.attributesByName.keys) == ["nickname", "firstName", "lastName"])
        #expect(try Self.version("V1", in: bundle).entitiesByName["Person"]!.attributesByName.keys.sorted() == ["fullName"])
        #expect(current.versionChecksum == (try Self.version("V4", in: bundle)).versionChecksum)
        #expect(current.versionChecksum != (try Self.version("V3", in: bundle)).versionChecksum)
    }

    /// V1 → V2 lightweight, V2 → V3 custom (its did-migrate handler splits every full name
    /// through the manager's container), V3 → V4 lightweight.
    @Test func aThreeStageMigrationRunsEachStageInOrder() throws {
        let bundle = try Self.modelBundle()
        let directory = TemporaryDirectory()
        let url = directory.file("People.sqlite")
        do {
            let context = try makeContainer(model: try Self.version("V1", in: bundle), storeURL: url).viewContext
            for name in ["Ada Lovelace", "Alan Turing", "Grace Hopper"] {
                NSEntityDescription.insertNewObject(forEntityName: "Person", into: context).setValue(name, forKey: "fullName")
            }
            try context.save()
        }
        let checksums = try ["V1", "V2", "V3", "V4"].map { try Self.version($0, in: bundle).versionChecksum }
        let split = NSCustomMigrationStage(
            migratingFrom: NSManagedObjectModelReference(fileURL: bundle.appendingPathComponent("V2.xcdatamodel"), versionChecksum: checksums[1]),
            to: NSManagedObjectModelReference(fileURL: bundle.appendingPathComponent("V3.xcdatamodel"), versionChecksum: checksums[2]))
        let events = Recorder()
        split.willMigrateHandler = { manager, _ in
            let context = try #require(manager.container).viewContext
            let people = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))
            events.add("will: \(people.count) people, keys \(people[0].entity.attributesByName.keys.sorted())")
        }
        split.didMigrateHandler = { manager, _ in
            let context = try #require(manager.container).viewContext
            for person in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")) {
                let parts = (person.value(forKey: "fullName") as? String ?? "").split(separator: " ").map(String.init)
                person.setValue(parts.first, forKey: "firstName")
                person.setValue(parts.dropFirst().joined(separator: " "), forKey: "lastName")
            }
            try context.save()
            events.add("did")
        }
        let manager = NSStagedMigrationManager([
            NSLightweightMigrationStage([checksums[0], checksums[1]]),
            split,
            NSLightweightMigrationStage([checksums[2], checksums[3]]),
        ])
        let container = NSPersistentContainer(name: "People", managedObjectModel: try NSManagedObjectModel.load(contentsOf: bundle))
        let description = NSPersistentStoreDescription(url: url)
        description.setOption(manager, forKey: NSPersistentStoreStagedMigrationManagerOptionKey)
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)
        #expect(events.all == ["will: 3 people, keys [\"fullName\", \"nickname\"]", "did"])
        #expect(manager.container == nil)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.sortDescriptors = [NSSortDescriptor(key: "lastName", ascending: true)]
        let people = try container.viewContext.fetch(request)
        #expect(people.map { "\($0.value(forKey: "firstName") as? String ?? "")|\($0.value(forKey: "lastName") as? String ?? "")" }
                == ["Grace|Hopper", "Ada|Lovelace", "Alan|Turing"])
        #expect(people[0].entity.attributesByName["fullName"] == nil)
    }

    @Test func aHandlerThatThrowsStopsTheMigrationWithItsError() throws {
        let bundle = try Self.modelBundle()
        let directory = TemporaryDirectory()
        let url = directory.file("People.sqlite")
        _ = try makeContainer(model: try Self.version("V2", in: bundle), storeURL: url)
        let checksums = try ["V2", "V3"].map { try Self.version($0, in: bundle).versionChecksum }
        let stage = NSCustomMigrationStage(
            migratingFrom: NSManagedObjectModelReference(model: try Self.version("V2", in: bundle), versionChecksum: checksums[0]),
            to: NSManagedObjectModelReference(model: try Self.version("V3", in: bundle), versionChecksum: checksums[1]))
        stage.willMigrateHandler = { _, _ in throw NSError(domain: "Handler", code: 7) }
        let loadError = try Self.loadError(of: url, currentModelIn: bundle, stages: [stage])
        #expect(loadError?.code == NSMigrationError)
        // Still a V2 store.
        #expect(try makeContainer(model: try Self.version("V2", in: bundle), storeURL: url).persistentStoreCoordinator.persistentStores.count == 1)
    }

    @Test func aReferenceWithTheWrongChecksumIsAnError() throws {
        let bundle = try Self.modelBundle()
        let directory = TemporaryDirectory()
        let url = directory.file("People.sqlite")
        _ = try makeContainer(model: try Self.version("V2", in: bundle), storeURL: url)
        let stage = NSCustomMigrationStage(
            migratingFrom: NSManagedObjectModelReference(model: try Self.version("V2", in: bundle), versionChecksum: "not-the-checksum"),
            to: NSManagedObjectModelReference(model: try Self.version("V3", in: bundle), versionChecksum: "nor-this"))
        let loadError = try Self.loadError(of: url, currentModelIn: bundle, stages: [stage])
        #expect(loadError?.code == NSMigrationError)
        #expect(loadError?.localizedDescription.contains("not-the-checksum") == true)
    }
}

/// Events recorded from handlers, in order.
private final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []
    func add(_ event: String) { lock.withLock { events.append(event) } }
    var all: [String] { lock.withLock { events } }
}
