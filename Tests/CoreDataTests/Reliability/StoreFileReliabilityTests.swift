import CoreData
import Foundation
import Testing

/// Store files in unusual states, beyond those of Store/StoreFileTests.swift: each gives a
/// clear error at loadPersistentStores and every file stays byte-for-byte as it was.
@Suite struct StoreFileReliabilityTests {
    let directory = TemporaryDirectory()

    func load(_ url: URL, model: NSManagedObjectModel = SmokeTests.personModel()) -> NSError? {
        do {
            _ = try makeContainer(model: model, storeURL: url)
            return nil
        } catch {
            return error as NSError
        }
    }

    /// The bytes of each of the store's files that exist, to compare before and after.
    func snapshot(_ url: URL, suffixes: [String] = ["", "-wal"]) -> [String: Data] {
        var files: [String: Data] = [:]
        for suffix in suffixes { files[suffix] = FileManager.default.contents(atPath: url.path + suffix) }
        return files
    }

    /// Writes a store whose newest saves are still in its WAL, as a crashed or running app leaves it.
    func storeWithSavesInItsWAL(_ url: URL) throws {
        let source = directory.file("source.sqlite")
        let context = try makeContainer(model: SmokeTests.personModel(), storeURL: source).newBackgroundContext()
        try context.performAndWait {
            for index in 0..<50 {
                NSEntityDescription.insertNewObject(forEntityName: "Person", into: context).setValue("Person \(index)", forKey: "name")
            }
            try context.save()
            // Copied while the container is open, so the WAL still holds the save.
            try FileManager.default.copyItem(atPath: source.path, toPath: url.path)
            try FileManager.default.copyItem(atPath: source.path + "-wal", toPath: url.path + "-wal")
        }
    }

    @Test func aWALWithoutItsDatabaseIsRefusedAndKept() throws {
        let store = directory.file("Orphan.sqlite")
        try storeWithSavesInItsWAL(store)
        try FileManager.default.removeItem(at: store)
        let wal = try #require(FileManager.default.contents(atPath: store.path + "-wal"))
        #expect(wal.count > 0)
        let error = try #require(load(store))
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSPersistentStoreOpenError)
        #expect(error.localizedDescription.contains("-wal"))
        #expect(FileManager.default.contents(atPath: store.path + "-wal") == wal, "the WAL is left byte-for-byte as it was")
        #expect(!FileManager.default.fileExists(atPath: store.path), "no new database is created beside it")
    }

    @Test func aWALWithItsDatabaseStillOpensWithEverySave() throws {
        let store = directory.file("Copied.sqlite")
        try storeWithSavesInItsWAL(store)
        let context = try makeContainer(model: SmokeTests.personModel(), storeURL: store).newBackgroundContext()
        #expect(try context.performAndWait { try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Person")) } == 50)
    }

    @Test func aStoreOfAnotherModelWithSavesInItsWALIsRefusedUntouched() throws {
        let store = directory.file("OtherModel.sqlite")
        try storeWithSavesInItsWAL(store)
        let before = snapshot(store)
        #expect(before["-wal"]?.isEmpty == false)
        let error = try #require(load(store, model: TestModels.dogWalk()))
        #expect(error.code == NSPersistentStoreIncompatibleVersionHashError)
        #expect(snapshot(store) == before)
    }

    @Test func aMissingStoreOpenedReadOnlyIsAnErrorAndNothingIsCreated() throws {
        let store = directory.file("Missing.sqlite")
        let container = NSPersistentContainer(name: "Missing", managedObjectModel: SmokeTests.personModel())
        let description = NSPersistentStoreDescription(url: store)
        description.isReadOnly = true
        container.persistentStoreDescriptions = [description]
        var loadError: NSError?
        container.loadPersistentStores { _, error in loadError = error as NSError? }
        #expect(loadError?.code == NSPersistentStoreOpenError)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    /// Paths with characters SQLite's URI syntax gives a meaning to (`?`, `#`, `%xx`), and
    /// spaces and quotes: the store is created, and reopened, at exactly that path.
    @Test(arguments: ["with space.sqlite", "query?mode=rw.sqlite", "hash#fragment.sqlite", "percent%41%2F.sqlite", "quote'and\"double.sqlite", "ünïcødé ✓.sqlite"])
    func storesAtPathsWithURICharactersReopen(name: String) throws {
        let store = directory.file(name)
        do {
            let context = try makeContainer(model: SmokeTests.personModel(), storeURL: store).newBackgroundContext()
            try context.performAndWait {
                NSEntityDescription.insertNewObject(forEntityName: "Person", into: context).setValue(name, forKey: "name")
                try context.save()
            }
        }
        #expect(FileManager.default.fileExists(atPath: store.path))
        let context = try makeContainer(model: SmokeTests.personModel(), storeURL: store).newBackgroundContext()
        let names = try context.performAndWait { try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")).map { $0.string("name") } }
        #expect(names == [name])
        let others = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { !$0.hasPrefix(name) }
        #expect(others.isEmpty, "no file at another path: \(others)")
    }
}
