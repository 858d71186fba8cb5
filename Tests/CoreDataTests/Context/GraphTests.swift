import CoreData
import Foundation
import Testing

@MainActor @Suite struct GraphTests {
    let directory = TemporaryDirectory()

    func container(_ type: String = NSSQLiteStoreType) throws -> NSPersistentContainer {
        try makeContainer(model: TestModels.library(), storeURL: directory.file("Library.sqlite"), type: type)
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func subentitiesShareTheirParentsFetchAndKeepTheirClassOfValues(storeType: String) throws {
        let container = try container(storeType)
        let context = container.viewContext
        let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
        book.setValue("Dune", forKey: "title")
        book.setValue(412, forKey: "pages")
        let film = NSEntityDescription.insertNewObject(forEntityName: "Film", into: context)
        film.setValue("Alien", forKey: "title")
        film.setValue(117, forKey: "minutes")
        try context.save()
        context.reset()
        let items = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))
        #expect(Set(items.compactMap { $0.entity.name }) == ["Book", "Film"])
        #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book")) == 1)
        let onlyItems = NSFetchRequest<NSManagedObject>(entityName: "Item")
        onlyItems.includesSubentities = false
        #expect(try context.count(for: onlyItems) == 0)
        let storedBook = try #require(items.first { $0.entity.name == "Book" })
        #expect(storedBook.value(forKey: "pages") as? Int == 412)
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func manyToManyKeepsBothSidesAcrossReset(storeType: String) throws {
        let container = try container(storeType)
        let context = container.viewContext
        let classic = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
        classic.setValue("classic", forKey: "label")
        let scifi = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
        scifi.setValue("sci-fi", forKey: "label")
        let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
        book.setValue("Dune", forKey: "title")
        book.mutableSetValue(forKey: "tags").addObjects(from: [classic, scifi])
        let film = NSEntityDescription.insertNewObject(forEntityName: "Film", into: context)
        film.setValue("Alien", forKey: "title")
        scifi.mutableSetValue(forKey: "items").add(film)
        try context.save()
        context.reset()
        let tags = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Tag"))
        let byLabel = Dictionary(uniqueKeysWithValues: tags.map { ($0.value(forKey: "label") as! String, $0) })
        let scifiTitles = (byLabel["sci-fi"]?.value(forKey: "items") as? NSSet)?.compactMap { ($0 as? NSManagedObject)?.value(forKey: "title") as? String }
        #expect(Set(scifiTitles ?? []) == ["Dune", "Alien"])
        #expect((byLabel["classic"]?.value(forKey: "items") as? NSSet)?.count == 1)
        let storedFilm = try #require((byLabel["sci-fi"]?.value(forKey: "items") as? NSSet)?.compactMap { $0 as? NSManagedObject }.first { $0.entity.name == "Film" })
        #expect((storedFilm.value(forKey: "tags") as? NSSet)?.count == 1)
    }

    @Test func fetchedObjectsAreFaultsUntilTouchedUnlessAskedOtherwise() throws {
        let context = try container().viewContext
        let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
        book.setValue("Emma", forKey: "title")
        try context.save()
        context.reset()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        let fault = try #require(try context.fetch(request).first)
        #expect(fault.isFault)
        #expect(fault.value(forKey: "title") as? String == "Emma")
        #expect(fault.isFault == false)
        context.reset()
        request.returnsObjectsAsFaults = false
        #expect(try context.fetch(request).first?.isFault == false)
    }

    @Test func objectIDsRoundTripThroughURIs() throws {
        let container = try container()
        let context = container.viewContext
        let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
        #expect(tag.objectID.isTemporaryID)
        try context.obtainPermanentIDs(for: [tag])
        #expect(tag.objectID.isTemporaryID == false)
        try context.save()
        let uri = tag.objectID.uriRepresentation()
        #expect(uri.scheme == "x-coredata")
        let coordinator = container.persistentStoreCoordinator
        #expect(coordinator.managedObjectID(forURIRepresentation: uri) == tag.objectID)
        #expect(coordinator.managedObjectID(forURIRepresentation: URL(string: "x-coredata://nowhere/Tag/p1")!) == nil)
        #expect(coordinator.managedObjectID(forURIRepresentation: URL(string: "x-coredata://\(coordinator.persistentStores[0].identifier!)/Nope/p1")!) == nil)
        let other = container.newBackgroundContext()
        let label = try other.performAndWait { try other.existingObject(with: tag.objectID).value(forKey: "label") }
        #expect(label == nil)
    }

    @Test func faultWhoseRowWasDeletedElsewhereReadsEmpty() throws {
        let container = try container()
        let context = container.viewContext
        let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
        tag.setValue("doomed", forKey: "label")
        try context.save()
        let id = tag.objectID
        let other = container.newBackgroundContext()
        try other.performAndWait {
            other.delete(try other.existingObject(with: id))
            try other.save()
        }
        context.reset()
        let fault = context.object(with: id)
        #expect(fault.value(forKey: "label") == nil)
        #expect(throws: NSError.self) { try context.existingObject(with: id) }
    }

    @Test func destroyingAStoreEmptiesItsFileAndRemovesTheStore() throws {
        let container = try container()
        let url = directory.file("Library.sqlite")
        #expect(FileManager.default.fileExists(atPath: url.path))
        try container.persistentStoreCoordinator.destroyPersistentStore(at: url, type: NSSQLiteStoreType)
        #expect(try SQLiteShell.lines(url, "SELECT COUNT(*) FROM sqlite_master") == ["0"])
        #expect(container.persistentStoreCoordinator.persistentStores.isEmpty)
    }

    @Test func defaultDirectoryFollowsXDGDataHome() {
        let url = NSPersistentContainer.defaultDirectoryURL()
        let base = ProcessInfo.processInfo.environment["XDG_DATA_HOME"] ?? (NSHomeDirectory() + "/.local/share")
        #expect(url.path.hasPrefix(base))
    }
}
