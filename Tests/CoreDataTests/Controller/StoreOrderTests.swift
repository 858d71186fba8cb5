@testable import CoreData
import Foundation
import Testing

/// A store whose order is not the controller's: the controller's own order rules, as it does
/// when SQLite breaks ties or collates differently. The controller builds its snapshot from the
/// fetch's order while it agrees and sorts what follows the first row that does not.
@MainActor @Suite struct StoreOrderTests {
    /// `DictionaryStore` answering every fetch of objects or IDs in the reverse of the order
    /// asked for.
    final class ReversingStore: DictionaryStore, @unchecked Sendable {
        static let reversingType = "ReversingDictionaryStore"
        static let reversingRegistered: Void = NSPersistentStoreCoordinator.registerStoreClass(ReversingStore.self, type: reversingType)

        override func loadMetadata() throws {
            try super.loadMetadata()
            metadata[NSStoreTypeKey] = Self.reversingType
        }

        override func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any {
            let result = try super.execute(request, with: context)
            guard request is NSFetchRequest<NSFetchRequestResult> else { return result }
            if let ids = result as? [NSManagedObjectID] { return Array(ids.reversed()) }
            if let objects = result as? [NSManagedObject] { return Array(objects.reversed()) }
            return result
        }
    }

    let directory = TemporaryDirectory()

    @Test func theControllerSortsRowsTheStoreReturnedInAnotherOrder() throws {
        ReversingStore.reversingRegistered
        let container = try makeContainer("Library", model: TestModels.library(), storeURL: directory.file("reversed"), type: ReversingStore.reversingType)
        let writer = container.viewContext
        let titles = ["delta", "alpha", "echo", "charlie", "bravo", "foxtrot", "alpha"]
        for (pages, title) in titles.enumerated() {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: writer)
            book.setValue(title, forKey: "title")
            book.setValue(pages, forKey: "pages")
        }
        try writer.save()

        let context = container.newBackgroundContext()
        func request() -> NSFetchRequest<NSManagedObject> {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true), NSSortDescriptor(key: "pages", ascending: true)]
            return request
        }
        let sorted = titles.enumerated().sorted { ($0.element, $0.offset) < ($1.element, $1.offset) }
        try context.performAndWait {
            // The store really answers in the other order.
            let fetched = try context.fetch(request()).map { $0.value(forKey: "pages") as? Int }
            #expect(fetched == sorted.reversed().map(\.offset))

            let plain = NSFetchedResultsController(fetchRequest: request(), managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            try plain.performFetch()
            #expect(plain.fetchedObjects?.map { $0.value(forKey: "pages") as? Int } == sorted.map(\.offset))

            let sectioned = NSFetchedResultsController(fetchRequest: request(), managedObjectContext: context, sectionNameKeyPath: "title", cacheName: nil)
            try sectioned.performFetch()
            #expect(sectioned.sections?.map(\.name) == ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"])
            #expect(sectioned.sections?.first?.numberOfObjects == 2)
            #expect(sectioned.fetchedObjects?.map { $0.value(forKey: "pages") as? Int } == sorted.map(\.offset))
        }
    }
}
