@testable import CoreData
import Foundation
import Testing

/// A store file written by Apple's Core Data on iOS (`Fixtures/apple-stores`) opens here with its model, reads every row, and stays a file Apple opens after our
/// saves; a store written here has Apple's metadata layout.
@Suite struct AppleStoreFileTests {
    /// The fixture folder (`Fixtures/apple-stores`, a copy of the shared fixture); a missing
    /// fixture fails the test rather than skipping it.
    static var fixtures: URL {
        (Bundle.module.url(forResource: "Fixtures", withExtension: nil) ?? URL(fileURLWithPath: "/missing-fixtures"))
            .appendingPathComponent("apple-stores", isDirectory: true)
    }

    static let appleUUID = "78FAC3F0-BB06-4113-9B0E-4D5E0B18F00D"
    /// Apple's version hashes of the model, as the fixture's README gives them.
    static let appleHashes = [
        "FeedbackCategory": "0606c0a42cfc5d739afd2a5dd9b1b21bfa756d3ff4e7aaecf89e01b0cdb567b2",
        "FeedbackSubCategory": "75a0aa0ea62ba3c84e95978e63a15e8e7fdfa62835bbf9f39c5a6e7f2d683fed",
    ]

    /// A copy of the Apple store in a fresh folder, and the fixture's model.
    func appleStore() throws -> (url: URL, model: NSManagedObjectModel, directory: TemporaryDirectory) {
        let source = Self.fixtures.appendingPathComponent("FeedbackModel.sqlite")
        try #require(FileManager.default.fileExists(atPath: source.path), "the Apple store fixture is missing at \(source.path)")
        let directory = TemporaryDirectory()
        let url = directory.file("FeedbackModel.sqlite")
        try FileManager.default.copyItem(at: source, to: url)
        return (url, try feedbackModel(), directory)
    }

    func feedbackModel() throws -> NSManagedObjectModel {
        try #require(NSManagedObjectModel(contentsOf: Self.fixtures.appendingPathComponent("FeedbackModel.xcdatamodeld")))
    }

    /// Opens the store at `url`, runs `body` on a context, and closes the store again.
    func withStore<T>(_ url: URL, _ model: NSManagedObjectModel, _ body: (NSManagedObjectContext, NSPersistentStore) throws -> T) throws -> T {
        let container = try makeContainer(model: model, storeURL: url)
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first)
        defer { try? container.persistentStoreCoordinator.remove(store) }
        let context = container.newBackgroundContext()
        return try context.performAndWait { try body(context, store) }
    }

    func fetch(_ entity: String, _ context: NSManagedObjectContext) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        return try context.fetch(request)
    }

    /// Every row as the sqlite3 shell sees it: `category name|subcategory name` pairs, one per
    /// subcategory (an empty category name for one without a category), and the category names.
    func rowsInFile(_ url: URL) throws -> (pairs: [String], categories: [String]) {
        let pairs = try SQLiteShell.lines(url, """
            SELECT COALESCE(c.ZNAME, ''), s.ZNAME FROM ZFEEDBACKSUBCATEGORY s LEFT JOIN ZFEEDBACKCATEGORY c ON c.Z_PK = s.ZCATEGORY
            """)
        return (pairs.sorted(), try SQLiteShell.lines(url, "SELECT ZNAME FROM ZFEEDBACKCATEGORY").sorted())
    }

    /// The same rows read through the framework, from both sides of the relationship.
    func rowsInContext(_ context: NSManagedObjectContext) throws -> (pairs: [String], categories: [String], inverse: [String]) {
        let subcategories = try fetch("FeedbackSubCategory", context)
        let categories = try fetch("FeedbackCategory", context)
        let pairs = subcategories.map { sub in
            "\((sub.value(forKey: "category") as? NSManagedObject)?.value(forKey: "name") as? String ?? "")|\(sub.value(forKey: "name") as? String ?? "")"
        }
        let inverse = categories.flatMap { category in
            ((category.value(forKey: "subcategory") as? Set<NSManagedObject>) ?? []).map {
                "\(category.value(forKey: "name") as? String ?? "")|\($0.value(forKey: "name") as? String ?? "")"
            }
        } + subcategories.filter { $0.value(forKey: "category") == nil }.map { "|\($0.value(forKey: "name") as? String ?? "")" }
        return (pairs.sorted(), categories.map { $0.value(forKey: "name") as? String ?? "" }.sorted(), inverse.sorted())
    }

    /// The metadata property list exactly as the file holds it, and the UUID column.
    func metadataRow(_ url: URL) throws -> (plist: [String: Any], uuid: String) {
        let row = try #require(try SQLiteShell.lines(url, "SELECT hex(Z_PLIST) || '|' || Z_UUID FROM Z_METADATA").first)
        let parts = row.split(separator: "|").map(String.init)
        var bytes: [UInt8] = []
        var hex = parts[0][...]
        while !hex.isEmpty {
            bytes.append(try #require(UInt8(hex.prefix(2), radix: 16)))
            hex = hex.dropFirst(2)
        }
        let plist = try #require(try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: Any])
        return (plist, parts[1])
    }

    func hexHashes(_ metadata: [String: Any]) -> [String: String] {
        (metadata[NSStoreModelVersionHashesKey] as? [String: Data] ?? [:]).mapValues { $0.map { String(format: "%02x", $0) }.joined() }
    }

    // MARK: Opening

    @Test func opensAppleStoreAndReadsEveryRowWithBothSidesOfTheRelationship() throws {
        let (url, model, directory) = try appleStore()
        defer { withExtendedLifetime(directory) {} }
        let file = try rowsInFile(url)
        #expect(file.categories.count == 19 && file.pairs.count == 79)
        let read = try withStore(url, model) { context, _ in try rowsInContext(context) }
        #expect(read.categories == file.categories)
        #expect(read.pairs == file.pairs)
        #expect(read.inverse == file.pairs, "the to-many side disagrees with the to-one side")
    }

    @Test func openingAgainChangesNothingAndKeepsApplesHashes() throws {
        let (url, model, directory) = try appleStore()
        defer { withExtendedLifetime(directory) {} }
        let schema = try SQLiteShell.lines(url, "PRAGMA schema_version; SELECT sql FROM sqlite_master ORDER BY name")
        let metadata = try metadataRow(url)
        for _ in 1...2 { _ = try withStore(url, model) { context, _ in try fetch("FeedbackCategory", context).count } }
        #expect(try SQLiteShell.lines(url, "PRAGMA schema_version; SELECT sql FROM sqlite_master ORDER BY name") == schema)
        let after = try metadataRow(url)
        #expect(after.uuid == metadata.uuid)
        #expect(hexHashes(after.plist) == Self.appleHashes, "the open migrated or rewrote Apple's hashes")
        #expect(NSDictionary(dictionary: after.plist).isEqual(to: metadata.plist))
    }

    @Test func identifierIsTheUUIDColumnAndStaysTheSameAcrossOpens() throws {
        let (url, model, directory) = try appleStore()
        defer { withExtendedLifetime(directory) {} }
        #expect(try metadataRow(url).uuid == Self.appleUUID)
        for _ in 1...2 {
            let (identifier, metadata, uriHost) = try withStore(url, model) { context, store in
                (store.identifier, store.metadata?[NSStoreUUIDKey] as? String, try fetch("FeedbackCategory", context)[0].objectID.uriRepresentation().host)
            }
            #expect(identifier == Self.appleUUID && metadata == Self.appleUUID && uriHost == Self.appleUUID)
        }
        let stored = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        #expect(stored[NSStoreUUIDKey] as? String == Self.appleUUID)
        #expect(hexHashes(stored) == Self.appleHashes)
    }

    /// Its hashes being the fixture model's, the store is known to be of that version, so a
    /// newer version migrates it as Apple's framework would; without migration it is refused.
    @Test func aNewerModelMigratesItAndIsRefusedWithoutMigration() throws {
        let (url, _, directory) = try appleStore()
        defer { withExtendedLifetime(directory) {} }
        let model = try feedbackModel()
        model.entitiesByName["FeedbackCategory"]!.properties.append(NSAttributeDescription(name: "rank", type: .integer32AttributeType))
        let refusing = NSPersistentContainer(name: "Feedback", managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: url)
        description.shouldMigrateStoreAutomatically = false
        refusing.persistentStoreDescriptions = [description]
        var refusal: Error?
        refusing.loadPersistentStores { _, error in refusal = error }
        #expect((refusal as? NSError)?.code == NSPersistentStoreIncompatibleVersionHashError)
        #expect(try SQLiteShell.lines(url, "PRAGMA table_info(ZFEEDBACKCATEGORY)").count == 4, "the refused open changed the file")

        let file = try rowsInFile(url)
        let read = try withStore(url, model) { context, _ in try rowsInContext(context) }
        #expect(read.pairs == file.pairs && read.categories == file.categories)
        #expect(try SQLiteShell.lines(url, "PRAGMA table_info(ZFEEDBACKCATEGORY)").count == 5)
        #expect(hexHashes(try metadataRow(url).plist) == model.entityVersionHashesByName.mapValues { $0.map { String(format: "%02x", $0) }.joined() })
    }

    // MARK: Saving

    @Test func savingKeepsRowsUnknownColumnsAndApplesMetadata() throws {
        let (url, model, directory) = try appleStore()
        defer { withExtendedLifetime(directory) {} }
        // Columns and tables Apple's framework may have that the model does not name, and a
        // model archive in Apple's format (not ours: it must be ignored, not fail the open).
        _ = try SQLiteShell.lines(url, """
            ALTER TABLE ZFEEDBACKSUBCATEGORY ADD COLUMN Z2CATEGORY INTEGER;
            UPDATE ZFEEDBACKSUBCATEGORY SET Z2CATEGORY = 1 WHERE ZCATEGORY IS NOT NULL;
            ALTER TABLE ZFEEDBACKCATEGORY ADD COLUMN ZLEGACY VARCHAR;
            UPDATE ZFEEDBACKCATEGORY SET ZLEGACY = 'kept-' || Z_PK;
            CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
            INSERT INTO Z_MODELCACHE VALUES (X'789C0B0E0D0A00000000');
            """)
        #expect(try SQLModelCache.model(inStoreAt: url.path) == nil, "Apple's model archive was read as ours")
        let before = try metadataRow(url)
        try withStore(url, model) { context, _ in
            let categories = try fetch("FeedbackCategory", context)
            let subcategories = try fetch("FeedbackSubCategory", context)
            categories[0].setValue("Renamed", forKey: "name")
            let added = NSEntityDescription.insertNewObject(forEntityName: "FeedbackCategory", into: context)
            added.setValue("Added", forKey: "name")
            for name in ["New one", "New two"] {
                let sub = NSEntityDescription.insertNewObject(forEntityName: "FeedbackSubCategory", into: context)
                sub.setValue(name, forKey: "name")
                sub.setValue(added, forKey: "category")
            }
            subcategories[0].setValue(added, forKey: "category")
            context.delete(subcategories[1])
            let doomed = try #require(categories.last)
            context.delete(doomed)
            try context.save()
        }
        let file = try rowsInFile(url)
        #expect(file.categories.count == 19 && file.pairs.count == 80)
        #expect(file.categories.contains("Renamed") && file.categories.contains("Added"))
        #expect(file.pairs.filter { $0.hasPrefix("Added|") }.count == 3)
        let read = try withStore(url, model) { context, _ in try rowsInContext(context) }
        #expect(read.pairs == file.pairs && read.inverse == file.pairs && read.categories == file.categories)

        // Unknown columns: kept on rows we updated or left alone, NULL on rows we inserted.
        #expect(try SQLiteShell.lines(url, "SELECT COUNT(*) FROM ZFEEDBACKCATEGORY WHERE ZLEGACY = 'kept-' || Z_PK") == ["18"])
        #expect(try SQLiteShell.lines(url, "SELECT ZLEGACY IS NULL FROM ZFEEDBACKCATEGORY WHERE ZNAME = 'Added'") == ["1"])
        #expect(try SQLiteShell.lines(url, "SELECT COUNT(*) FROM ZFEEDBACKSUBCATEGORY WHERE Z2CATEGORY = 1") != ["0"])
        #expect(try SQLiteShell.lines(url, "SELECT COUNT(*) FROM Z_MODELCACHE") == ["1"])

        // Apple's metadata: every key and value kept, hashes included, and no UUID in the list.
        let after = try metadataRow(url)
        #expect(after.uuid == Self.appleUUID)
        #expect(NSDictionary(dictionary: after.plist).isEqual(to: before.plist))
        #expect(hexHashes(after.plist) == Self.appleHashes)
        #expect(after.plist[NSStoreUUIDKey] == nil)
        #expect(after.plist["NSPersistenceFrameworkVersion"] as? Int == 479)
        #expect(after.plist["_NSAutoVacuumLevel"] as? String == "2")
    }

    @Test func metadataSetByTheProgramKeepsApplesKeys() throws {
        let (url, model, directory) = try appleStore()
        defer { withExtendedLifetime(directory) {} }
        try withStore(url, model) { context, store in
            let coordinator = try #require(context.persistentStoreCoordinator)
            coordinator.setMetadata(["MyKey": "mine"], for: store)
            NSEntityDescription.insertNewObject(forEntityName: "FeedbackCategory", into: context).setValue("Another", forKey: "name")
            try context.save()
        }
        let plist = try metadataRow(url).plist
        #expect(plist["MyKey"] as? String == "mine")
        #expect(hexHashes(plist) == Self.appleHashes)
        for key in ["NSStoreType", "NSPersistenceFrameworkVersion", "NSStoreModelVersionHashesVersion", "NSStoreModelVersionIdentifiers"] {
            #expect(plist[key] != nil, "\(key) was dropped")
        }
        #expect(plist[NSStoreUUIDKey] == nil)
    }

    // MARK: Stores written here

    @Test func aStoreWrittenHereHasApplesMetadataLayout() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Written.sqlite")
        let model = try feedbackModel()
        let identifier = try withStore(url, model) { _, store in store.identifier }
        let row = try metadataRow(url)
        #expect(row.uuid == identifier && !row.uuid.isEmpty)
        #expect(Set(row.plist.keys) == ["NSStoreModelVersionHashes", "NSStoreType", "NSPersistenceFrameworkVersion",
                                        "NSStoreModelVersionHashesVersion", "NSStoreModelVersionIdentifiers",
                                        "NSStoreModelVersionHashesDigest", "NSStoreModelVersionChecksumKey"])
        #expect(row.plist[NSStoreTypeKey] as? String == "SQLite")
        #expect(row.plist["NSStoreModelVersionHashesVersion"] as? Int == 3)
        #expect(row.plist["NSPersistenceFrameworkVersion"] as? Int == SQLiteStoreMetadata.frameworkVersion)
        #expect(row.plist["NSStoreModelVersionIdentifiers"] as? [String] == [])
        #expect(row.plist[NSStoreModelVersionHashesKey] as? [String: Data] == model.entityVersionHashesByName)
        let stored = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        #expect(stored[NSStoreUUIDKey] as? String == identifier)
        #expect(try withStore(url, model) { _, store in store.identifier } == identifier)
    }

    @Test func anOlderStoreWithItsUUIDInThePropertyListKeepsItsIdentifier() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Older.sqlite")
        let model = try feedbackModel()
        let identifier = try #require(try withStore(url, model) { _, store in store.identifier })
        // The layout stores had before: the UUID in the property list as well as the column.
        let older: [String: Any] = [NSStoreUUIDKey: identifier, NSStoreTypeKey: NSSQLiteStoreType,
                                    NSStoreModelVersionHashesKey: model.entityVersionHashesByName]
        let plist = try PropertyListSerialization.data(fromPropertyList: older, format: .binary, options: 0)
        _ = try SQLiteShell.lines(url, "UPDATE Z_METADATA SET Z_PLIST = X'\(plist.map { String(format: "%02X", $0) }.joined())'")
        #expect(try metadataRow(url).plist[NSStoreUUIDKey] as? String == identifier)
        #expect(try withStore(url, model) { _, store in store.identifier } == identifier)
    }
}
