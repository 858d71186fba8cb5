@_spi(ModelCompiler) import CoreData
import Foundation
import Testing

/// Every API that writes, renames or removes files, handed paths that are not stores: each
/// refuses with an error, and afterwards every entry is as it was (RELIABILITY.md, "Paths and
/// files").
@Suite struct HostilePathTests {
    /// One file-writing API, applied to a path.
    struct Operation: CustomTestStringConvertible, Sendable {
        let name: String
        let run: @Sendable (URL, _ realStore: URL) throws -> Void
        var testDescription: String { name }
    }

    static let operations: [Operation] = [
        Operation(name: "destroy a SQLite store") { url, _ in
            try coordinator().destroyPersistentStore(at: url, type: .sqlite)
        },
        Operation(name: "destroy a binary store") { url, _ in
            try coordinator().destroyPersistentStore(at: url, type: .binary)
        },
        Operation(name: "add a SQLite store") { url, _ in
            try coordinator().addPersistentStore(type: .sqlite, at: url)
        },
        Operation(name: "add a binary store") { url, _ in
            try coordinator().addPersistentStore(type: .binary, at: url)
        },
        Operation(name: "replace it with a store") { url, store in
            try coordinator().replacePersistentStore(at: url, withPersistentStoreFrom: store, type: .sqlite)
        },
        Operation(name: "replace a new store with it") { url, store in
            let destination = store.deletingLastPathComponent().appendingPathComponent("replaced-\(UUID().uuidString).sqlite")
            try coordinator().replacePersistentStore(at: destination, withPersistentStoreFrom: url, type: .sqlite)
        },
        Operation(name: "migratePersistentStore to it") { url, store in
            let coordinator = coordinator()
            let source = try coordinator.addPersistentStore(type: .sqlite, at: store)
            defer { try? coordinator.remove(source) }
            try coordinator.migratePersistentStore(source, to: url, type: .sqlite)
        },
        Operation(name: "migratePersistentStore to it as a binary store") { url, store in
            let coordinator = coordinator()
            let source = try coordinator.addPersistentStore(type: .sqlite, at: store)
            defer { try? coordinator.remove(source) }
            try coordinator.migratePersistentStore(source, to: url, type: .binary)
        },
        Operation(name: "migrateStore into it") { url, store in
            try NSMigrationManager(sourceModel: PeopleModel.make(), destinationModel: PeopleModel.make())
                .migrateStore(from: store, sourceType: NSSQLiteStoreType, with: nil, toDestinationURL: url, destinationType: NSSQLiteStoreType)
        },
        Operation(name: "migrateStore from it") { url, store in
            let destination = store.deletingLastPathComponent().appendingPathComponent("migrated-\(UUID().uuidString).sqlite")
            try NSMigrationManager(sourceModel: PeopleModel.make(), destinationModel: PeopleModel.make())
                .migrateStore(from: url, sourceType: NSSQLiteStoreType, with: nil, toDestinationURL: destination, destinationType: NSSQLiteStoreType)
        },
        Operation(name: "read its SQLite metadata") { url, _ in
            _ = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        },
        Operation(name: "read its binary metadata") { url, _ in
            _ = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSBinaryStoreType, at: url)
        },
        Operation(name: "compile a model into it") { url, _ in
            let model = Bundle.module.url(forResource: "FeedbackModel", withExtension: "xcdatamodeld")!
            try ModelCompiler.compile(model, into: url)
        },
    ]

    static func coordinator() -> NSPersistentStoreCoordinator {
        NSPersistentStoreCoordinator(managedObjectModel: PeopleModel.make())
    }

    /// A real store with one person, in a folder of its own.
    static func makeRealStore(in folder: TemporaryDirectory) throws -> URL {
        let url = folder.file("real.sqlite")
        let container = try makeContainer(model: PeopleModel.make(), storeURL: url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            context.insertPerson("Ada")
            try context.save()
        }
        return url
    }

    @Test(arguments: operations)
    func everyHostilePathIsRefusedAndLeftAsItWas(_ operation: Operation) throws {
        let hostile = try HostilePaths()
        let storeFolder = TemporaryDirectory()
        let store = try Self.makeRealStore(in: storeFolder)
        let before = hostile.fingerprints()
        for (name, url) in hostile.paths {
            #expect(throws: (any Error).self, "\(operation.name): \(name)") { try operation.run(url, store) }
        }
        let after = hostile.fingerprints()
        for path in Set(before.keys).union(after.keys) where before[path] != after[path] {
            Issue.record("\(operation.name) changed \(path): \(String(describing: before[path])) -> \(String(describing: after[path]))")
        }
        // The real store is still whole: the source of a copy or migration is only read.
        #expect(try makeContainer(model: PeopleModel.make(), storeURL: store).newBackgroundContext().storedPeople().map(\.name) == ["Ada"])
    }

    @Test(arguments: operations)
    func aPathLongerThanTheSystemAllowsIsRefusedAndCreatesNothing(_ operation: Operation) throws {
        let folder = TemporaryDirectory()
        let storeFolder = TemporaryDirectory()
        let store = try Self.makeRealStore(in: storeFolder)
        let url = folder.url.appendingPathComponent(String(repeating: "x", count: 300)).appendingPathComponent("store.sqlite")
        #expect(throws: (any Error).self) { try operation.run(url, store) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test(arguments: operations)
    func devNullIsNeverTouched(_ operation: Operation) throws {
        let storeFolder = TemporaryDirectory()
        let store = try Self.makeRealStore(in: storeFolder)
        let before = try #require(HostilePaths.fingerprint("/dev/null"))
        try? operation.run(URL(fileURLWithPath: "/dev/null"), store)
        try? operation.run(URL(fileURLWithPath: "/dev/../dev/null"), store)
        #expect(HostilePaths.fingerprint("/dev/null") == before)
        #expect(before.type == S_IFCHR)
        for suffix in ["-wal", "-shm", "-journal"] {
            #expect(HostilePaths.fingerprint("/dev/null" + suffix) == nil, "/dev/null\(suffix) was created")
        }
    }

    @Test
    func destroyingDevNullSucceedsAndLeavesIt() throws {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: URL(fileURLWithPath: "/dev/null"))
        let coordinator = container.persistentStoreCoordinator
        try coordinator.destroyPersistentStore(at: URL(fileURLWithPath: "/dev/null"), type: .sqlite)
        try coordinator.destroyPersistentStore(at: URL(fileURLWithPath: "/dev/null"), type: .binary)
        #expect(coordinator.persistentStores.isEmpty, "the anonymous store was taken out of the coordinator")
        #expect(HostilePaths.fingerprint("/dev/null")?.type == S_IFCHR)
    }

    @Test
    func deleteCacheRemovesOnlySectionCaches() throws {
        let cacheName = "HostilePathTests-\(UUID().uuidString)"
        let container = try makeContainer(model: PeopleModel.make(), storeURL: TemporaryDirectory().file("cache.sqlite"))
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        do {
            let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: container.viewContext,
                                                        sectionNameKeyPath: nil, cacheName: cacheName)
            try controller.performFetch()
        }
        let caches = try #require(FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first)
            .appendingPathComponent("CoreData.NSFetchedResultsController")
        let ours = try FileManager.default.contentsOfDirectory(atPath: caches.path).filter { $0.hasPrefix(cacheName) }
        #expect(ours.count == 1, "the controller wrote its cache")
        // A file of someone else's where the cache was, and one with a cache's name beside it.
        let cacheFile = caches.appendingPathComponent(try #require(ours.first))
        try Data("not a cache\n".utf8).write(to: cacheFile)
        let foreign = caches.appendingPathComponent("\(cacheName)-foreign.cache")
        try Data("someone else's\n".utf8).write(to: foreign)
        defer {
            try? FileManager.default.removeItem(at: cacheFile)
            try? FileManager.default.removeItem(at: foreign)
        }
        // (Not `deleteCache(withName: nil)`: other suites' caches live in the same folder.)
        NSFetchedResultsController<NSManagedObject>.deleteCache(withName: cacheName)
        #expect(FileManager.default.contents(atPath: cacheFile.path) == Data("not a cache\n".utf8))
        #expect(FileManager.default.contents(atPath: foreign.path) == Data("someone else's\n".utf8))
    }
}
