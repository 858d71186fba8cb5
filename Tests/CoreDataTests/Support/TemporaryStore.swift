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
/// failing the test on load errors; `options` are added to the store description's.
func makeContainer(_ name: String = "Test", model: NSManagedObjectModel, storeURL: URL?, type: String = NSSQLiteStoreType,
                   options: [String: NSObject] = [:]) throws -> NSPersistentContainer {
    DictionaryStore.registered
    let container = NSPersistentContainer(name: name, managedObjectModel: model)
    let description = try StoreUnderTest.description(url: storeURL, type: type)
    for (key, value) in options { description.setOption(value, forKey: key) }
    container.persistentStoreDescriptions = [description]
    var loadError: Error?
    container.loadPersistentStores { _, error in loadError = error }
    if let loadError { throw loadError }
    return container
}
