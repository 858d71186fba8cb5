import CoreData
import Foundation
import Testing

/// `NSManagedObject`'s own keys answer key-value coding and predicates, as on Apple platforms.
@Suite struct ObjectOwnKeysTests {
    @Test func objectAnswersItsOwnKeys() throws {
        let container = try ShelfModel.container()
        let context = container.viewContext
        let book = ShelfBook(context: context)
        #expect(book.value(forKey: "entity") as? NSEntityDescription === book.entity)
        #expect(book.value(forKey: "objectID") as? NSManagedObjectID == book.objectID)
        #expect(book.value(forKey: "managedObjectContext") as? NSManagedObjectContext === context)
        #expect(book.value(forKey: "self") as? ShelfBook === book)
        #expect(book.value(forKey: "isInserted") as? Bool == true)
        #expect(book.value(forKey: "inserted") as? Bool == true)
        #expect(book.value(forKey: "hasChanges") as? Bool == true)
        #expect(book.value(forKey: "isUpdated") as? Bool == false)
        #expect(book.value(forKey: "isDeleted") as? Bool == false)
        #expect(book.value(forKey: "isFault") as? Bool == false)
        #expect(book.value(forKeyPath: "entity") as? NSEntityDescription === book.entity)
        try context.save()
        context.delete(book)
        #expect(book.value(forKey: "isDeleted") as? Bool == true)
    }

    @Test func entityPredicateMatchesInMemory() throws {
        let container = try ShelfModel.container()
        let context = container.viewContext
        let book = ShelfBook(context: context)
        let pamphlet = NSEntityDescription.insertNewObject(forEntityName: "Pamphlet", into: context)
        let isBook = NSPredicate(format: "entity == %@", book.entity)
        #expect(isBook.evaluate(with: book))
        #expect(!isBook.evaluate(with: pamphlet))
        #expect(NSPredicate(format: "entity != %@", book.entity).evaluate(with: pamphlet))
        #expect(NSPredicate(format: "isInserted == YES").evaluate(with: pamphlet))
    }

    @Test func entityPredicateMatchesInSQLiteFetch() throws {
        let directory = TemporaryDirectory()
        let container = try ShelfModel.container(storeURL: directory.file("Shelf.sqlite"))
        let context = container.viewContext
        _ = ShelfBook(context: context)
        _ = NSEntityDescription.insertNewObject(forEntityName: "Pamphlet", into: context)
        try context.save()
        // Another load of the same model: its entity matches by name, as Apple's does.
        let bookEntity = try #require(ShelfModel.make().entitiesByName["Book"])
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.predicate = NSPredicate(format: "entity == %@", bookEntity)
        #expect(try context.fetch(request).count == 1)
        request.predicate = NSPredicate(format: "entity != %@", bookEntity)
        #expect(try context.fetch(request).isEmpty)
        request.predicate = NSPredicate(format: "entity IN %@", [bookEntity])
        #expect(try context.fetch(request).count == 1)
        let pamphlets = NSFetchRequest<NSManagedObject>(entityName: "Pamphlet")
        pamphlets.predicate = NSPredicate(format: "entity == %@", bookEntity)
        #expect(try context.fetch(pamphlets).isEmpty)
    }
}
