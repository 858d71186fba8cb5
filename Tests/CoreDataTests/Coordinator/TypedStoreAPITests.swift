import CoreData
import Foundation
import Testing

/// The typed API of recent releases: `NSAttributeDescription.type`, `NSPersistentStore.StoreType`
/// and the coordinator's typed store operations, with the string forms they stand beside.
@Suite struct TypedStoreAPITests {
    let directory = TemporaryDirectory()

    func coordinator() -> NSPersistentStoreCoordinator {
        NSPersistentStoreCoordinator(managedObjectModel: PeopleModel.make())
    }

    /// A store at `url` holding people named `names`.
    func store(_ names: [String], at url: URL) throws {
        let coordinator = coordinator()
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for name in names { context.insertPerson(name) }
            try context.save()
        }
        try coordinator.remove(store)
    }

    func names(at url: URL) throws -> [String?] {
        let coordinator = coordinator()
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return try context.storedPeople().map(\.name)
    }

    @Test func attributeTypeMirrorsAttributeType() {
        let attribute = NSAttributeDescription(name: "when", type: .dateAttributeType)
        #expect(attribute.type == .date)
        attribute.type = .integer64
        #expect(attribute.attributeType == .integer64AttributeType)
        #expect(NSAttributeDescription.AttributeType.uuid.rawValue == .UUIDAttributeType)
        #expect(NSAttributeDescription.AttributeType(rawValue: .stringAttributeType) == .string)
    }

    @Test func storeTypesNameTheStringTypes() throws {
        #expect(NSPersistentStore.StoreType.sqlite.rawValue == NSSQLiteStoreType)
        #expect(NSPersistentStore.StoreType.inMemory.rawValue == NSInMemoryStoreType)
        #expect(NSPersistentStore.StoreType.binary.rawValue == NSBinaryStoreType)
        let store = try coordinator().addPersistentStore(type: .inMemory, configuration: nil, at: URL(fileURLWithPath: "/dev/null"))
        #expect(store.type == NSInMemoryStoreType)
    }

    @Test func addPersistentStoreTypeOpensASQLiteFile() throws {
        let url = directory.file("People.sqlite")
        try store(["Ada"], at: url)
        #expect(try names(at: url) == ["Ada"])
    }

    @Test func metadataIsReadWithoutOpeningTheStore() throws {
        let url = directory.file("People.sqlite")
        let coordinator = coordinator()
        let identifier = try coordinator.addPersistentStore(type: .sqlite, at: url).identifier
        let typed = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        let named = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        #expect(typed[NSStoreUUIDKey] as? String == identifier)
        #expect(typed[NSStoreTypeKey] as? String == NSSQLiteStoreType)
        #expect(named[NSStoreUUIDKey] as? String == identifier)
        #expect(PeopleModel.make().isConfiguration(withName: nil, compatibleWithStoreMetadata: typed))
    }

    @Test func metadataOfAMissingFileThrows260AndOfAForeignFile259() throws {
        let missing = directory.file("Missing.sqlite")
        let noFile = #expect(throws: NSError.self) { try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: missing) }
        #expect(noFile?.code == CocoaError.fileReadNoSuchFile.rawValue)
        let foreign = directory.file("Foreign.sqlite")
        try Data("not a database".utf8).write(to: foreign)
        let notAStore = #expect(throws: NSError.self) { try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: foreign) }
        #expect(notAStore?.code == 259)
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    @Test func destroyPersistentStoreTypeEmptiesTheFileAndItsCompanionsGo() throws {
        let url = directory.file("People.sqlite")
        try store(["Ada"], at: url)
        try coordinator().destroyPersistentStore(at: url, type: .sqlite)
        #expect(try SQLiteShell.lines(url, "SELECT COUNT(*) FROM sqlite_master") == ["0"])
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    @Test func replacePersistentStoreCopiesTheSourceIntoANewOrExistingDestination() throws {
        let source = directory.file("Source.sqlite")
        let destination = directory.file("Copies/Destination.sqlite")
        try store(["Ada", "Bo"], at: source)
        try coordinator().replacePersistentStore(at: destination, withPersistentStoreFrom: source, type: .sqlite)
        #expect(try names(at: destination) == ["Ada", "Bo"])

        try store(["Cy"], at: source)
        try coordinator().replacePersistentStore(at: destination, destinationOptions: nil, withPersistentStoreFrom: source,
                                                 sourceOptions: nil, ofType: NSSQLiteStoreType)
        #expect(try names(at: destination) == ["Ada", "Bo", "Cy"])
        #expect(try names(at: source) == ["Ada", "Bo", "Cy"], "the source is left as it was")
    }

    @Test func replacingAStoreOpenInTheCoordinatorThrowsAndChangesNothing() throws {
        let source = directory.file("Source.sqlite")
        let destination = directory.file("Destination.sqlite")
        try store(["Ada"], at: source)
        try store(["Zed"], at: destination)
        let coordinator = coordinator()
        try coordinator.addPersistentStore(type: .sqlite, at: destination)
        #expect(throws: NSError.self) {
            try coordinator.replacePersistentStore(at: destination, withPersistentStoreFrom: source, type: .sqlite)
        }
        #expect(try names(at: destination) == ["Zed"])
    }
}
