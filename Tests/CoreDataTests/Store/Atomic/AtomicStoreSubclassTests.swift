import CoreData
import Foundation
import Testing

/// A user-written `NSAtomicStore` subclass (`JSONLinesStore`) behind a coordinator: the
/// framework calls `load()` when the store is added, and for each save names new objects with
/// `newReferenceObject(for:)`, makes their nodes with `newCacheNode(for:)`, refreshes changed
/// ones with `updateCacheNode(_:from:)`, announces deletions with `willRemoveCacheNodes(_:)` and
/// then calls `save()`; a save that throws puts the nodes back.
@MainActor @Suite struct AtomicStoreSubclassTests {
    let directory = TemporaryDirectory()

    init() { JSONLinesStore.registered }

    static let model = NSManagedObjectModel(entities: [
        NSEntityDescription(name: "Author", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSRelationshipDescription(name: "books", destination: "Book", toMany: true, inverse: "author", deleteRule: .cascadeDeleteRule),
        ]),
        NSEntityDescription(name: "Book", properties: [
            NSAttributeDescription(name: "title", type: .stringAttributeType),
            NSAttributeDescription(name: "pages", type: .integer32AttributeType),
            NSRelationshipDescription(name: "author", destination: "Author", inverse: "books"),
        ]),
    ])

    func open(_ name: String) throws -> (NSManagedObjectContext, JSONLinesStore) {
        let container = try makeContainer("Books", model: Self.model, storeURL: directory.file(name), type: JSONLinesStore.type)
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first as? JSONLinesStore)
        return (container.viewContext, store)
    }

    func insertAuthor(_ name: String, books: [(String, Int)], into context: NSManagedObjectContext) -> NSManagedObject {
        let author = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
        author.setValue(name, forKey: "name")
        for (title, pages) in books {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            book.setValue(title, forKey: "title")
            book.setValue(pages, forKey: "pages")
            book.setValue(author, forKey: "author")
        }
        return author
    }

    func fetchBooks(_ context: NSManagedObjectContext) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        return try context.fetch(request)
    }

    @Test func theStoreIsLoadedWhenAddedAndNamedByItsMetadata() throws {
        let (_, store) = try open("new.jsonl")
        #expect(store.calls == ["load"])
        #expect(store.type == JSONLinesStore.type)
        #expect(store.identifier == store.metadata[NSStoreUUIDKey] as? String)
        #expect(store.metadata[NSStoreModelVersionHashesKey] != nil)
    }

    @Test func anInsertNamesMakesAndSavesNodes() throws {
        let (context, store) = try open("insert.jsonl")
        let author = insertAuthor("Austen", books: [("Emma", 474), ("Persuasion", 249)], into: context)
        try context.save()
        #expect(store.calls.filter { $0.hasPrefix("reference") }.sorted() == ["reference Author", "reference Book", "reference Book"])
        #expect(store.calls.filter { $0.hasPrefix("new") }.sorted() == ["new Author Austen", "new Book Emma", "new Book Persuasion"])
        #expect(!store.calls.contains { $0.hasPrefix("update") || $0.hasPrefix("remove") })
        #expect(store.calls.last == "save")
        #expect(store.cacheNodes().count == 3)

        let node = try #require(store.cacheNode(for: author.objectID))
        #expect(node.value(forKey: "name") as? String == "Austen")
        let books = (node.value(forKey: "books") as? NSSet)?.allObjects.compactMap { $0 as? NSAtomicStoreCacheNode } ?? []
        #expect(Set(books.compactMap { $0.value(forKey: "title") as? String }) == ["Emma", "Persuasion"])
        #expect(books.allSatisfy { $0.value(forKey: "author") as? NSAtomicStoreCacheNode === node })
        #expect(store.referenceObject(for: author.objectID) as? Int != nil)
    }

    @Test func anEditUpdatesOnlyTheChangedNodes() throws {
        let (context, store) = try open("edit.jsonl")
        _ = insertAuthor("Austen", books: [("Emma", 474), ("Persuasion", 249)], into: context)
        try context.save()
        let emma = try #require(try fetchBooks(context).first)
        emma.setValue(475, forKey: "pages")
        let before = store.calls.count
        try context.save()
        #expect(Array(store.calls[before...]) == ["update Book Emma", "save"])
        #expect(store.cacheNode(for: emma.objectID)?.value(forKey: "pages") as? NSNumber == 475)
    }

    @Test func aDeleteAnnouncesTheRemovedNodesAndUpdatesTheirOwner() throws {
        let (context, store) = try open("delete.jsonl")
        _ = insertAuthor("Austen", books: [("Emma", 474), ("Persuasion", 249)], into: context)
        try context.save()
        let emma = try #require(try fetchBooks(context).first)
        context.delete(emma)
        let before = store.calls.count
        try context.save()
        #expect(Array(store.calls[before...]) == ["update Author Austen", "remove Book Emma", "save"])
        #expect(store.cacheNode(for: emma.objectID) == nil)
        #expect(store.cacheNodes().count == 2)
    }

    @Test func anotherCoordinatorReadsWhatSaveWrote() throws {
        do {
            let (context, _) = try open("shared.jsonl")
            _ = insertAuthor("Austen", books: [("Emma", 474), ("Persuasion", 249)], into: context)
            _ = insertAuthor("Herbert", books: [("Dune", 412)], into: context)
            try context.save()
        }
        let (context, store) = try open("shared.jsonl")
        #expect(store.calls == ["load"])
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.predicate = NSPredicate(format: "author.name == %@ AND pages > 300", "Austen")
        #expect(try context.fetch(request).map { $0.value(forKey: "title") as? String } == ["Emma"])
        let books = try fetchBooks(context)
        #expect(books.map { $0.value(forKey: "title") as? String } == ["Dune", "Emma", "Persuasion"])
        #expect(books.map { ($0.value(forKey: "author") as? NSManagedObject)?.value(forKey: "name") as? String } == ["Herbert", "Austen", "Austen"])
        let austen = try #require(books[1].value(forKey: "author") as? NSManagedObject)
        #expect((austen.value(forKey: "books") as? NSSet)?.count == 2)

        // References carry on after the largest one loaded.
        _ = insertAuthor("Le Guin", books: [], into: context)
        try context.save()
        #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Author")) == 3)
    }

    @Test func aSaveThatThrowsPutsTheNodesBackAndKeepsTheContextsChanges() throws {
        let (context, store) = try open("failing.jsonl")
        _ = insertAuthor("Austen", books: [("Emma", 474)], into: context)
        let herbert = insertAuthor("Herbert", books: [("Dune", 412)], into: context)
        try context.save()
        let emma = try #require(try fetchBooks(context).last)
        let nodes = store.cacheNodes()
        let written = try Data(contentsOf: directory.file("failing.jsonl"))

        emma.setValue("Emma (annotated)", forKey: "title")
        _ = insertAuthor("Brontë", books: [("Jane Eyre", 532)], into: context)
        context.delete(herbert)
        store.failsNextSave = true
        let error = #expect(throws: NSError.self) { try context.save() }
        #expect(error?.code == Int(ENOSPC))

        #expect(store.cacheNodes() == nodes)
        #expect(store.cacheNode(for: emma.objectID)?.value(forKey: "title") as? String == "Emma")
        #expect(try Data(contentsOf: directory.file("failing.jsonl")) == written)
        #expect(context.hasChanges)
        try context.save()
        let (reopened, _) = try open("failing.jsonl")
        #expect(try fetchBooks(reopened).map { $0.value(forKey: "title") as? String } == ["Emma (annotated)", "Jane Eyre"])
    }
}
