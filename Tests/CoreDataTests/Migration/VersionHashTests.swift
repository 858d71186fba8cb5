import CoreData
import Foundation
import Testing

/// Version hashes move exactly when Apple's do, and the metadata API reads and writes what a
/// store records.
@Suite struct VersionHashTests {
    /// `Book(title, cover) → Author`, with `edit` applied before the model is made.
    static func model(_ edit: (NSEntityDescription, NSAttributeDescription, NSRelationshipDescription) -> Void = { _, _, _ in }) -> NSManagedObjectModel {
        let title = NSAttributeDescription(name: "title", type: .stringAttributeType)
        let cover = NSAttributeDescription(name: "cover", type: .binaryDataAttributeType)
        let author = NSRelationshipDescription(name: "author", destination: "Author")
        let book = NSEntityDescription(name: "Book", properties: [title, cover, author])
        edit(book, title, author)
        return NSManagedObjectModel(entities: [book, NSEntityDescription(name: "Author", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType),
        ])])
    }

    static let original = model().entityVersionHashesByName["Book"]

    static func bookHash(_ edit: @escaping (NSEntityDescription, NSAttributeDescription, NSRelationshipDescription) -> Void) -> Data? {
        model(edit).entityVersionHashesByName["Book"]
    }

    @Test func theHashMovesWithWhatShapesTheStore() {
        let changes: [(String, (NSEntityDescription, NSAttributeDescription, NSRelationshipDescription) -> Void)] = [
            ("entity name", { book, _, _ in book.name = "Volume" }),
            ("abstract", { book, _, _ in book.isAbstract = true }),
            ("entity hash modifier", { book, _, _ in book.versionHashModifier = "2" }),
            ("attribute made required", { _, title, _ in title.isOptional = false }),
            ("attribute made transient", { _, title, _ in title.isTransient = true }),
            ("attribute type", { _, title, _ in title.attributeType = .integer64AttributeType }),
            ("attribute renamed", { _, title, _ in title.name = "heading" }),
            ("property hash modifier", { _, title, _ in title.versionHashModifier = "x" }),
            ("external storage", { book, _, _ in (book.propertiesByName["cover"] as! NSAttributeDescription).allowsExternalBinaryDataStorage = true }),
            ("relationship to-many", { _, _, author in author.maxCount = 0 }),
            ("relationship minimum", { _, _, author in author.minCount = 1 }),
            ("relationship ordered", { _, _, author in author.maxCount = 0; author.isOrdered = true }),
        ]
        for (label, change) in changes {
            #expect(Self.bookHash(change) != Self.original, "\(label) must change the hash")
        }
    }

    @Test func theHashIgnoresWhatDoesNot() {
        let changes: [(String, (NSEntityDescription, NSAttributeDescription, NSRelationshipDescription) -> Void)] = [
            ("class name", { book, _, _ in book.managedObjectClassName = "Book" }),
            ("user info", { book, title, _ in book.userInfo = ["a": 1]; title.userInfo = ["b": 2] }),
            ("default value", { _, title, _ in title.defaultValue = "Untitled" }),
            ("validation", { _, title, _ in title.setValidationPredicates([NSPredicate(format: "length > 1")], withValidationWarnings: ["short"]) }),
            ("renaming identifier", { book, title, _ in book.renamingIdentifier = "Tome"; title.renamingIdentifier = "name" }),
            ("delete rule", { _, _, author in author.deleteRule = .cascadeDeleteRule }),
            ("indexed", { _, title, _ in title.isIndexed = true }),
        ]
        for (label, change) in changes {
            #expect(Self.bookHash(change) == Self.original, "\(label) must leave the hash alone")
        }
    }

    @Test func propertyHashesAndTheModelChecksumFollowTheirParts() {
        let model = Self.model()
        let title = model.entitiesByName["Book"]!.propertiesByName["title"]!
        let required = Self.model { _, title, _ in title.isOptional = false }.entitiesByName["Book"]!.propertiesByName["title"]!
        #expect(title.versionHash != required.versionHash)
        #expect(title.versionHash == Self.model().entitiesByName["Book"]!.propertiesByName["title"]!.versionHash)
        #expect(model.versionChecksum == Self.model().versionChecksum)
        #expect(model.versionChecksum != Self.model { _, title, _ in title.isOptional = false }.versionChecksum)
    }

    @Test func theModelReaderReadsHashModifiersAndRenamingIdentifiers() throws {
        let url = try ModelFiles.contentsFile(ModelFiles.modelXML("""
        <entity name="Book" versionHashModifier="v2" elementID="Tome">
            <attribute name="title" optional="YES" attributeType="String" versionHashModifier="m" elementID="heading"/>
        </entity>
        """))
        let book = try #require(try NSManagedObjectModel.load(contentsOf: url).entitiesByName["Book"])
        #expect(book.versionHashModifier == "v2")
        #expect(book.renamingIdentifier == "Tome")
        #expect(book.propertiesByName["title"]?.versionHashModifier == "m")
        #expect(book.propertiesByName["title"]?.renamingIdentifier == "heading")
    }

    // MARK: Metadata

    @Test func metadataSetOnAStoreIsWrittenWithTheNextSaveAndReadWithoutOpeningIt() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Books.sqlite")
        let model = Self.model()
        let container = try makeContainer(model: model, storeURL: url)
        let coordinator = container.persistentStoreCoordinator
        let store = try #require(coordinator.persistentStores.first)
        let identifier = store.identifier
        coordinator.setMetadata(["LastImport": "2026-11-25", NSStoreUUIDKey: "ignored"], for: store)
        #expect(coordinator.metadata(for: store)["LastImport"] as? String == "2026-11-25")
        #expect(coordinator.metadata(for: store)[NSStoreUUIDKey] as? String == identifier)
        #expect(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)["LastImport"] == nil)
        _ = NSEntityDescription.insertNewObject(forEntityName: "Author", into: container.viewContext)
        try container.viewContext.save()
        let stored = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        #expect(stored["LastImport"] as? String == "2026-11-25")
        #expect(stored[NSStoreUUIDKey] as? String == identifier)
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: stored))
        #expect(!Self.model { _, title, _ in title.isOptional = false }.isConfiguration(withName: nil, compatibleWithStoreMetadata: stored))
    }

    @Test func theModelForAStoresMetadataIsFoundAmongABundlesVersions() throws {
        let bundle = try StagedMigrationTests.modelBundle()
        let directory = TemporaryDirectory()
        let url = directory.file("People.sqlite")
        _ = try makeContainer(model: try StagedMigrationTests.version("V2", in: bundle), storeURL: url)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        let container = try #require(Bundle(url: bundle.deletingLastPathComponent()))
        let found = try #require(NSManagedObjectModel.mergedModel(from: [container], forStoreMetadata: metadata))
        #expect(found.versionChecksum == (try StagedMigrationTests.version("V2", in: bundle)).versionChecksum)
        #expect(NSManagedObjectModel.mergedModel(from: [container], forStoreMetadata: [NSStoreModelVersionHashesKey: ["Nope": Data()]]) == nil)
    }

    /// A store whose own model copy is gone still migrates when its version ships in the
    /// model bundle the program loads its current model from.
    @Test func aStoreMigratesFromAVersionFoundInTheModelsBundle() throws {
        let bundle = try StagedMigrationTests.modelBundle()
        let directory = TemporaryDirectory()
        let url = directory.file("People.sqlite")
        let context = try makeContainer(model: try StagedMigrationTests.version("V2", in: bundle), storeURL: url).viewContext
        NSEntityDescription.insertNewObject(forEntityName: "Person", into: context).setValue("Ada", forKey: "nickname")
        try context.save()
        _ = try SQLiteShell.lines(url, "DROP TABLE Z_MODELCACHE")
        let current = try makeContainer(model: try NSManagedObjectModel.load(contentsOf: bundle), storeURL: url)
        let people = try current.viewContext.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))
        #expect(people.map { $0.value(forKey: "nickname") as? String } == ["Ada"])
    }
}
