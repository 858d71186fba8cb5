import CoreData
import Foundation
import Testing

/// A store's metadata written by the program: through the class method on a closed store
/// file, and through `setMetadata(_:for:)` on an open store, written by the next save even
/// when no object changed.
@Suite struct StoreMetadataTests {
    let directory = TemporaryDirectory()

    /// Opens (creating) the store at `url` of `type` with one person saved.
    func openStore(at url: URL, type: NSPersistentStore.StoreType) throws -> (NSPersistentStoreCoordinator, NSPersistentStore, NSManagedObjectContext) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: PeopleModel.make())
        let store = try coordinator.addPersistentStore(type: type, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return (coordinator, store, context)
    }

    @Test(arguments: [NSPersistentStore.StoreType.sqlite, .binary])
    func theClassMethodWritesAClosedStoresMetadataAndKeepsItsOwnKeys(type: NSPersistentStore.StoreType) throws {
        let url = directory.file("People.store")
        let (coordinator, store, context) = try openStore(at: url, type: type)
        try context.performAndWait {
            context.insertPerson("Ada")
            try context.save()
        }
        try coordinator.remove(store)
        var metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: type.rawValue, at: url)
        let uuid = try #require(metadata[NSStoreUUIDKey] as? String)
        metadata["lastImport"] = "2026-11-28"
        metadata[NSStoreModelVersionHashesKey] = nil
        try NSPersistentStoreCoordinator.setMetadata(metadata, forPersistentStoreOfType: type.rawValue, at: url, options: nil)

        let written = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)
        #expect(written["lastImport"] as? String == "2026-11-28")
        #expect(written[NSStoreUUIDKey] as? String == uuid)
        #expect(written[NSStoreModelVersionHashesKey] != nil, "the hashes the store needs to open are kept")
        let (_, reopened, readContext) = try openStore(at: url, type: type)
        #expect(reopened.metadata["lastImport"] as? String == "2026-11-28")
        #expect(try readContext.storedPeople().map(\.name) == ["Ada"])

        try NSPersistentStoreCoordinator.setMetadata(["other": 1], type: type, at: url)
        #expect(try NSPersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)["lastImport"] == nil)
    }

    @Test func theClassMethodRefusesAMissingFileAndAFileThatIsNoStore() throws {
        let missing = directory.file("Missing.sqlite")
        #expect(throws: NSError.self) {
            try NSPersistentStoreCoordinator.setMetadata(["a": 1], forPersistentStoreOfType: NSSQLiteStoreType, at: missing)
        }
        #expect(!FileManager.default.fileExists(atPath: missing.path))
        let text = directory.file("Notes.txt")
        try Data("not a store".utf8).write(to: text)
        let error = #expect(throws: NSError.self) {
            try NSPersistentStoreCoordinator.setMetadata(["a": 1], forPersistentStoreOfType: NSSQLiteStoreType, at: text)
        }
        #expect(error?.code == NSFileReadCorruptFileError)
        #expect(try Data(contentsOf: text) == Data("not a store".utf8))
    }

    @Test(arguments: [NSPersistentStore.StoreType.sqlite, .binary])
    func metadataSetOnAnOpenStoreIsWrittenByASaveWithNoChanges(type: NSPersistentStore.StoreType) throws {
        let url = directory.file("People.store")
        let (coordinator, store, context) = try openStore(at: url, type: type)
        var metadata = coordinator.metadata(for: store)
        metadata["syncToken"] = "42"
        coordinator.setMetadata(metadata, for: store)
        #expect(try NSPersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)["syncToken"] == nil,
                "nothing is written before the save")
        try context.performAndWait {
            #expect(!context.hasChanges)
            try context.save()
        }
        #expect(try NSPersistentStoreCoordinator.metadataForPersistentStore(type: type, at: url)["syncToken"] as? String == "42")
    }
}
