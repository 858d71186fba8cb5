import CoreData
import Foundation
import Testing

/// Stores written by this project before it computed Apple's version hashes
/// (`Fixtures/legacy-hashes`): they open with their model without a migration, and record
/// Apple's hashes from their next save on, so that Apple's framework then opens them too.
@Suite struct LegacyHashStoreTests {
    /// A copy of the fixture `name` in a fresh folder.
    func legacyStore(_ name: String) throws -> (url: URL, directory: TemporaryDirectory) {
        let source = try ModelFiles.fixture("legacy-hashes/\(name)")
        try #require(FileManager.default.fileExists(atPath: source.path), "the fixture \(source.path) is missing")
        let directory = TemporaryDirectory()
        let url = directory.file(name)
        try FileManager.default.copyItem(at: source, to: url)
        return (url, directory)
    }

    /// A container on `url` that refuses to migrate: it loads only a store its model can
    /// use as it is.
    func containerWithoutMigration(_ model: NSManagedObjectModel, _ url: URL) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Legacy", managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: url)
        description.shouldMigrateStoreAutomatically = false
        description.shouldInferMappingModelAutomatically = false
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    func storedHashes(_ url: URL) throws -> [String: Data] {
        try #require(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)[NSStoreModelVersionHashesKey] as? [String: Data])
    }

    func titlesAndChapters(_ context: NSManagedObjectContext) throws -> [String] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        return try context.fetch(request).map { book in
            let chapters = (book.value(forKey: "chapters") as? NSOrderedSet)?.array.compactMap { ($0 as? NSManagedObject)?.value(forKey: "title") as? String } ?? []
            let authors = ((book.value(forKey: "authors") as? Set<NSManagedObject>) ?? []).compactMap { $0.value(forKey: "name") as? String }.sorted()
            return "\(book.value(forKey: "title") as? String ?? "")|\(authors.joined(separator: "+"))|\(chapters.joined(separator: ","))"
        }
    }

    /// A store of the current model version, with old hashes, opens as it is (no migration is
    /// allowed here), and its next save records Apple's hashes in place of the old ones.
    @Test func anOldStoreOfTheCurrentVersionOpensWithoutMigrationAndRecordsApplesHashesAtItsNextSave() throws {
        let (url, directory) = try legacyStore("Fixture2-legacy.sqlite")
        defer { withExtendedLifetime(directory) {} }
        let model = try NSManagedObjectModel.load(contentsOf: ModelFiles.fixture("Fixture.xcdatamodeld"))
        #expect(try storedHashes(url) != model.entityVersionHashesByName)
        let context = try containerWithoutMigration(model, url).viewContext
        let before = try titlesAndChapters(context)
        #expect(!before.isEmpty)
        let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
        book.setValue("Zoology", forKey: "title")
        try context.save()
        #expect(try storedHashes(url) == model.entityVersionHashesByName)
        let reopened = try containerWithoutMigration(model, url).viewContext
        #expect(try titlesAndChapters(reopened) == before + ["Zoology||"])
    }

    /// A store of an earlier model version, with old hashes, is found to be that version and
    /// migrates to the current one.
    @Test func anOldStoreOfAnEarlierVersionMigrates() throws {
        let (url, directory) = try legacyStore("Fixture1-legacy.sqlite")
        defer { withExtendedLifetime(directory) {} }
        let model = try NSManagedObjectModel.load(contentsOf: ModelFiles.fixture("Fixture.xcdatamodeld"))
        let context = try makeContainer(model: model, storeURL: url).viewContext
        #expect(try titlesAndChapters(context) == ["Engines|Ada|"])
        #expect(try storedHashes(url) == model.entityVersionHashesByName)
    }
}
