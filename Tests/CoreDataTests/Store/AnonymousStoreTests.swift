import CoreData
import Foundation
import Testing

/// A store URL of `/dev/null` (Xcode's template for previews and tests) is a SQLite store that
/// keeps nothing and shares nothing.
@Suite struct AnonymousStoreTests {
    func container() throws -> NSPersistentContainer {
        try makeContainer(model: PeopleModel.make(), storeURL: URL(fileURLWithPath: "/dev/null"))
    }

    @Test func devNullLoadsAsASQLiteStoreThatSavesAndFetches() throws {
        let container = try container()
        #expect(container.persistentStoreCoordinator.persistentStores.first?.type == NSSQLiteStoreType)
        let context = container.newBackgroundContext()
        let names = try context.performAndWait {
            context.insertPerson("Ada")
            context.insertPerson("Bo")
            try context.save()
            return try context.storedPeople().map(\.name)
        }
        #expect(names == ["Ada", "Bo"])
        // A second context reads through the reader pool what the first wrote.
        #expect(try container.newBackgroundContext().storedPeople().map(\.name) == ["Ada", "Bo"])
    }

    @Test func twoContainersOnDevNullDoNotShareData() throws {
        let first = try container()
        let second = try container()
        let context = first.newBackgroundContext()
        try context.performAndWait {
            context.insertPerson("Ada")
            try context.save()
        }
        #expect(try second.newBackgroundContext().storedPeople().isEmpty)
        #expect(try first.newBackgroundContext().storedPeople().map(\.name) == ["Ada"])
    }

    @Test func aNewContainerOnDevNullStartsEmpty() throws {
        do {
            let container = try container()
            let context = container.newBackgroundContext()
            try context.performAndWait {
                context.insertPerson("Ada")
                try context.save()
            }
        }
        #expect(try container().newBackgroundContext().storedPeople().isEmpty)
        #expect(FileManager.default.fileExists(atPath: "/dev/null"), "/dev/null itself is never touched")
    }

    @Test func removingTheStoreDeletesItsPrivateFile() throws {
        // Other test processes may make and remove such directories meanwhile: look only at
        // the ones that appeared with this store.
        let before = anonymousDirectories()
        let container = try container()
        let created = anonymousDirectories().subtracting(before)
        #expect(!created.isEmpty)
        let coordinator = container.persistentStoreCoordinator
        try coordinator.remove(try #require(coordinator.persistentStores.first))
        #expect(!created.subtracting(anonymousDirectories()).isEmpty)
    }

    private func anonymousDirectories() -> Set<String> {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : FileManager.default.temporaryDirectory.path
        return Set(((try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []).filter { $0.hasPrefix("CoreData-anonymous-") })
    }
}
