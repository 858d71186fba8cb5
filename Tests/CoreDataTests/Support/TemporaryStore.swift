import CoreData
import Foundation

/// A fresh directory per test for store files, removed when the value is released.
final class TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("CoreDataTests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// A container on a SQLite file (or in memory, or `StoreUnderTest`'s PostgreSQL schema), loaded,
/// failing the test on load errors.
func makeContainer(_ name: String = "Test", model: NSManagedObjectModel, storeURL: URL?, type: String = NSSQLiteStoreType) throws -> NSPersistentContainer {
    DictionaryStore.registered
    let container = NSPersistentContainer(name: name, managedObjectModel: model)
    container.persistentStoreDescriptions = [try StoreUnderTest.description(url: storeURL, type: type)]
    var loadError: Error?
    container.loadPersistentStores { _, error in loadError = error }
    if let loadError { throw loadError }
    return container
}
