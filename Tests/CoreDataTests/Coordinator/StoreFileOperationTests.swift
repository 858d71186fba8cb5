import CoreData
import Foundation
import Testing

/// Destroying, replacing and moving stores as Apple's framework does, on real files.
@Suite struct StoreFileOperationTests {
    private func savedStore(at url: URL, names: [String] = ["Ada", "Bo"]) throws -> NSPersistentContainer {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for name in names { context.insertPerson(name) }
            try context.save()
        }
        return container
    }

    @Test func destroyingASQLiteStoreEmptiesItsFileInPlace() throws {
        let folder = TemporaryDirectory()
        let url = folder.file("people.sqlite")
        let container = try savedStore(at: url)
        try container.persistentStoreCoordinator.destroyPersistentStore(at: url, type: .sqlite)
        #expect(container.persistentStoreCoordinator.persistentStores.isEmpty)
        // The file stays, a SQLite database without tables; SQLite's close took its companions.
        let header = try #require(FileManager.default.contents(atPath: url.path))
        #expect(header.starts(with: Data("SQLite format 3\u{0}".utf8)))
        #expect(try SQLiteShell.lines(url, "SELECT COUNT(*) FROM sqlite_master") == ["0"])
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: url.path + "-shm"))
        // A tear-down that removes the file afterwards, as on Apple platforms, succeeds.
        try FileManager.default.removeItem(at: url)
    }

    @Test func aDestroyedStoreOpensAgainEmpty() throws {
        let folder = TemporaryDirectory()
        let url = folder.file("people.sqlite")
        try savedStore(at: url).persistentStoreCoordinator.destroyPersistentStore(at: url, type: .sqlite)
        let reopened = try savedStore(at: url, names: ["Cy"])
        #expect(try reopened.newBackgroundContext().storedPeople().map(\.name) == ["Cy"])
    }

    @Test func destroyingWhatIsNotThereSucceeds() throws {
        let folder = TemporaryDirectory()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: PeopleModel.make())
        try coordinator.destroyPersistentStore(at: folder.file("never.sqlite"), type: .sqlite)
        try coordinator.destroyPersistentStore(at: folder.file("never.bin"), type: .binary)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test func destroyingABinaryStoreRemovesItsFile() throws {
        let folder = TemporaryDirectory()
        let url = folder.file("people.bin")
        let container = try makeContainer(model: PeopleModel.make(), storeURL: url, type: NSBinaryStoreType)
        #expect(FileManager.default.fileExists(atPath: url.path))
        try container.persistentStoreCoordinator.destroyPersistentStore(at: url, type: .binary)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func aStoreOpensThroughALinkButIsNotDestroyedThroughIt() throws {
        let folder = TemporaryDirectory()
        let url = folder.file("people.sqlite")
        _ = try savedStore(at: url)
        let link = folder.file("link.sqlite")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: url)
        let linked = try makeContainer(model: PeopleModel.make(), storeURL: link)
        #expect(try linked.newBackgroundContext().storedPeople().map(\.name) == ["Ada", "Bo"])
        let error = try #require(throws: NSError.self) {
            try linked.persistentStoreCoordinator.destroyPersistentStore(at: link, type: .sqlite)
        }
        #expect(error.code == NSFileReadCorruptFileError)
        #expect(try makeContainer(model: PeopleModel.make(), storeURL: url).newBackgroundContext().storedPeople().count == 2)
    }

    @Test func aCompanionThatIsNotSQLitesKeepsTheStoreClosed() throws {
        let folder = TemporaryDirectory()
        let url = folder.file("people.sqlite")
        try savedStore(at: url).persistentStoreCoordinator.persistentStores.forEach { try $0.persistentStoreCoordinator?.remove($0) }
        let outside = TemporaryDirectory()
        let precious = outside.file("precious.txt")
        try Data("precious\n".utf8).write(to: precious)
        try FileManager.default.createSymbolicLink(atPath: url.path + "-wal", withDestinationPath: precious.path)
        #expect(throws: NSError.self) { try makeContainer(model: PeopleModel.make(), storeURL: url) }
        #expect(FileManager.default.contents(atPath: precious.path) == Data("precious\n".utf8))
    }

    @Test func theCommitSignalNeverWritesThroughALink() throws {
        let folder = TemporaryDirectory()
        let url = folder.file("people.sqlite")
        let outside = TemporaryDirectory()
        let precious = outside.file("precious.txt")
        try Data("precious\n".utf8).write(to: precious)
        try FileManager.default.createSymbolicLink(atPath: url.path + "-changes", withDestinationPath: precious.path)
        let description = NSPersistentStoreDescription(url: url)
        description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        let container = NSPersistentContainer(name: "People", managedObjectModel: PeopleModel.make())
        container.persistentStoreDescriptions = [description]
        container.loadPersistentStores { _, _ in }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            context.insertPerson("Ada")
            try context.save()
        }
        #expect(try container.newBackgroundContext().storedPeople().map(\.name) == ["Ada"])
        #expect(FileManager.default.contents(atPath: precious.path) == Data("precious\n".utf8))
    }

    @Test func anEmptiedDatabaseIsTheOnlyFileReplaceWritesOver() throws {
        let folder = TemporaryDirectory()
        let source = folder.file("source.sqlite")
        _ = try savedStore(at: source)
        let destination = folder.file("destination.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: PeopleModel.make())
        try savedStore(at: destination, names: ["Old"]).persistentStoreCoordinator.destroyPersistentStore(at: destination, type: .sqlite)
        try coordinator.replacePersistentStore(at: destination, withPersistentStoreFrom: source, type: .sqlite)
        #expect(try makeContainer(model: PeopleModel.make(), storeURL: destination).newBackgroundContext().storedPeople().map(\.name) == ["Ada", "Bo"])
    }

    @Test(arguments: [NSPersistentStore.StoreType.sqlite, .binary])
    func migratePersistentStoreMovesTheObjectsToANewFile(_ type: NSPersistentStore.StoreType) throws {
        let folder = TemporaryDirectory()
        let source = folder.file("source.sqlite")
        let container = try savedStore(at: source)
        let coordinator = container.persistentStoreCoordinator
        let old = try #require(coordinator.persistentStores.first)
        let destination = folder.file("moved.store")
        let moved = try coordinator.migratePersistentStore(old, to: destination, type: type)
        #expect(coordinator.persistentStores.count == 1 && coordinator.persistentStores.first === moved)
        #expect(moved.url?.standardizedFileURL == destination.standardizedFileURL && moved.type == type.rawValue)
        #expect(try container.newBackgroundContext().storedPeople().map(\.name) == ["Ada", "Bo"])
        // The old file is left as it was.
        #expect(try makeContainer(model: PeopleModel.make(), storeURL: source).newBackgroundContext().storedPeople().count == 2)
    }
}
