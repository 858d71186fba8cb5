@testable import CoreData
import Foundation
import Testing

/// A user-written `NSIncrementalStore` subclass (`DictionaryStore`) behind a coordinator:
/// registration, saving and reading back through another coordinator, IDs from reference
/// objects, and what the coordinator refuses. The random fetch cases (`ContextDifferentialTests`)
/// and random controller batches (`ControllerPropertyTests`) run on it too.
@MainActor @Suite struct IncrementalStoreTests {
    let directory = TemporaryDirectory()

    init() { DictionaryStore.registered }

    func container(_ name: String) throws -> NSPersistentContainer {
        try makeContainer("Library", model: TestModels.library(), storeURL: directory.file(name), type: DictionaryStore.type)
    }

    @Test func aRegisteredClassMakesTheStoresOfItsType() throws {
        #expect(NSPersistentStoreCoordinator.registeredStoreTypes[DictionaryStore.type] == DictionaryStore.self)
        #expect(NSPersistentStoreCoordinator.registeredStoreTypes[NSSQLiteStoreType] != nil)
        let container = try container("registered")
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first as? DictionaryStore)
        #expect(store.type == DictionaryStore.type)
        #expect(store.identifier == store.database.uuid)
        #expect(store.metadata[NSStoreUUIDKey] as? String == store.database.uuid)
    }

    @Test func anUnknownTypeIsRefusedWithInvalidTypeError() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestModels.library())
        let error = #expect(throws: NSError.self) {
            try coordinator.addPersistentStore(ofType: "NoSuchStore", configurationName: nil, at: directory.file("none"))
        }
        #expect(error?.code == NSPersistentStoreInvalidTypeError)
    }

    @Test func aClassThatIsNotAnIncrementalStoreIsNotRegistered() throws {
        NSPersistentStoreCoordinator.registerStoreClass(NSObject.self, type: "NotAStore")
        #expect(NSPersistentStoreCoordinator.registeredStoreTypes["NotAStore"] == nil)
        NSPersistentStoreCoordinator.registerStoreClass(DictionaryStore.self, type: "Unregistered")
        NSPersistentStoreCoordinator.registerStoreClass(nil, type: "Unregistered")
        #expect(NSPersistentStoreCoordinator.registeredStoreTypes["Unregistered"] == nil)
    }

    @Test func savedObjectsReadBackThroughAnotherCoordinator() throws {
        let writer = try container("shared").viewContext
        let fiction = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: writer)
        fiction.setValue("fiction", forKey: "label")
        for (title, pages) in [("Dune", 412), ("Emma", 474), ("Ubik", 202)] {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: writer)
            book.setValue(title, forKey: "title")
            book.setValue(pages, forKey: "pages")
            book.mutableSetValue(forKey: "tags").add(fiction)
        }
        let film = NSEntityDescription.insertNewObject(forEntityName: "Film", into: writer)
        film.setValue("Alien", forKey: "title")
        film.setValue(117, forKey: "minutes")
        try writer.save()
        #expect(!fiction.objectID.isTemporaryID)

        let reader = try container("shared").viewContext
        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        request.predicate = NSPredicate(format: "title != %@", "Emma")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: false)]
        let items = try reader.fetch(request)
        #expect(items.map { $0.value(forKey: "title") as? String } == ["Ubik", "Dune", "Alien"])
        #expect(items.map(\.entity.name) == ["Book", "Book", "Film"])
        #expect(items[0].value(forKey: "pages") as? Int == 202)
        #expect(try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book")) == 3)

        let tag = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Tag")).first)
        let tagged = (tag.value(forKey: "items") as? NSSet)?.allObjects as? [NSManagedObject] ?? []
        #expect(Set(tagged.compactMap { $0.value(forKey: "title") as? String }) == ["Dune", "Emma", "Ubik"])
        #expect(tagged.allSatisfy { $0.entity.name == "Book" })
    }

    @Test func editsAndDeletesReachTheStore() throws {
        let writer = try container("edits").viewContext
        let books = (0..<3).map { index in
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: writer)
            book.setValue("Book \(index)", forKey: "title")
            return book
        }
        try writer.save()
        books[0].setValue("Renamed", forKey: "title")
        writer.delete(books[1])
        try writer.save()

        let reader = try container("edits").viewContext
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        #expect(try reader.fetch(request).map { $0.value(forKey: "title") as? String } == ["Book 2", "Renamed"])
        // The deleted row's ID no longer names an object.
        #expect(throws: NSError.self) { try reader.existingObject(with: books[1].objectID) }
        let store = try #require(writer.persistentStoreCoordinator?.persistentStores.first as? DictionaryStore)
        #expect(store.database.withLock { $0.requestCounts["NSSaveChangesRequest"] } == 2)
    }

    @Test func referenceObjectsRoundTripThroughObjectIDs() throws {
        let container = try container("references")
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first as? DictionaryStore)
        let entity = try #require(container.managedObjectModel.entitiesByName["Tag"])

        let numbered = store.newObjectID(for: entity, referenceObject: 42)
        #expect(store.referenceObject(for: numbered) as? Int == 42)
        #expect(numbered == store.newObjectID(for: entity, referenceObject: 42))
        #expect(numbered.uriRepresentation().absoluteString == "x-coredata://\(store.identifier!)/Tag/p42")
        #expect(container.persistentStoreCoordinator.managedObjectID(forURIRepresentation: numbered.uriRepresentation()) == numbered)

        let named = store.newObjectID(for: entity, referenceObject: "tag-fiction")
        #expect(store.referenceObject(for: named) as? String == "tag-fiction")
        #expect(named == store.newObjectID(for: entity, referenceObject: "tag-fiction"))
        #expect(named != store.newObjectID(for: entity, referenceObject: "tag-poetry"))
        #expect(!named.isTemporaryID)
    }

    @Test func batchRequestsTheStoreDoesNotRunThrowUnsupported() throws {
        let context = try container("batch").viewContext
        let error = #expect(throws: NSError.self) {
            try context.execute(NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Book")))
        }
        #expect(error?.code == NSPersistentStoreUnsupportedRequestTypeError)
    }

    @Test func metadataWithoutAUUIDFailsToLoad() throws {
        final class NamelessStore: NSIncrementalStore, @unchecked Sendable {
            override func loadMetadata() throws { metadata = [NSStoreTypeKey: "Nameless"] }
        }
        NSPersistentStoreCoordinator.registerStoreClass(NamelessStore.self, type: "Nameless")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestModels.library())
        let error = #expect(throws: NSError.self) {
            try coordinator.addPersistentStore(ofType: "Nameless", configurationName: nil, at: directory.file("nameless"))
        }
        #expect(error?.code == NSPersistentStoreOpenError)
        #expect(coordinator.persistentStores.isEmpty)
    }

    @Test func contextsReportTheObjectsTheyRegisterAndLetGo() throws {
        final class CountingStore: DictionaryStore, @unchecked Sendable {
            let registered = Locked<[NSManagedObjectID]>([])
            let unregistered = Locked<[NSManagedObjectID]>([])
            override func managedObjectContextDidRegisterObjects(with objectIDs: [NSManagedObjectID]) {
                registered.withLock { $0 += objectIDs }
            }
            override func managedObjectContextDidUnregisterObjects(with objectIDs: [NSManagedObjectID]) {
                unregistered.withLock { $0 += objectIDs }
            }
        }
        NSPersistentStoreCoordinator.registerStoreClass(CountingStore.self, type: "Counting")
        let writer = try makeContainer("Library", model: TestModels.library(), storeURL: directory.file("counting"), type: "Counting").viewContext
        for title in ["A", "B"] { NSEntityDescription.insertNewObject(forEntityName: "Book", into: writer).setValue(title, forKey: "title") }
        try writer.save()

        let container = try makeContainer("Library", model: TestModels.library(), storeURL: directory.file("counting"), type: "Counting")
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first as? CountingStore)
        let books = try container.viewContext.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book"))
        #expect(Set(store.registered.withLock { $0 }) == Set(books.map(\.objectID)))
        container.viewContext.reset()
        #expect(Set(store.unregistered.withLock { $0 }) == Set(books.map(\.objectID)))
    }
}
