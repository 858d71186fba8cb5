import CoreData
import Foundation
import Testing

/// Derived attributes (`NSDerivedAttributeDescription`) are computed as a save writes the object,
/// read back from the store, and usable in fetches.
@Suite struct DerivedAttributeTests {
    let directory = TemporaryDirectory()

    /// Authors and books as Xcode writes a model with derived attributes.
    static func model() throws -> NSManagedObjectModel {
        let xml = ModelFiles.modelXML("""
            <entity name="Author" representedClassName="NSManagedObject" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="searchName" optional="YES" attributeType="String" derived="YES" derivationExpression="canonical:(name)"/>
                <attribute name="bookCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="books.@count" usesScalarValueType="YES"/>
                <attribute name="pageTotal" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="books.@sum.pages" usesScalarValueType="YES"/>
                <relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
            </entity>
            <entity name="Book" representedClassName="NSManagedObject" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                <attribute name="pages" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="authorName" optional="YES" attributeType="String" derived="YES" derivationExpression="author.name"/>
                <attribute name="shoutedTitle" optional="YES" attributeType="String" derived="YES" derivationExpression="uppercase:(title)"/>
                <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
            </entity>
            """)
        return try #require(NSManagedObjectModel(contentsOf: try ModelFiles.contentsFile(xml)))
    }

    private func insertAuthor(_ name: String, books: [(String, Int)], into context: NSManagedObjectContext) -> NSManagedObject {
        let author = NSEntityDescription.insertNewObject(forEntityName: "Author", into: context)
        author.setValue(name, forKey: "name")
        for (title, pages) in books {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            book.setValue(title, forKey: "title")
            book.setValue(Int64(pages), forKey: "pages")
            book.setValue(author, forKey: "author")
        }
        return author
    }

    @Test func theModelReaderMakesDerivedAttributesWithTheirExpressions() throws {
        let author = try #require(try Self.model().entitiesByName["Author"])
        let count = try #require(author.attributesByName["bookCount"] as? NSDerivedAttributeDescription)
        #expect(count.derivationExpression?.keyPath == "books.@count")
        #expect(author.attributesByName["name"] is NSDerivedAttributeDescription == false)
    }

    @Test func aSaveComputesDerivedValuesAndTheStoreKeepsThem() throws {
        let url = directory.file("Library.sqlite")
        let model = try Self.model()
        let context = try makeContainer(model: model, storeURL: url).newBackgroundContext()
        try context.performAndWait {
            let author = insertAuthor("Émile Zola", books: [("Germinal", 592), ("Nana", 464)], into: context)
            #expect(author.value(forKey: "bookCount") == nil)
            try context.save()
            #expect(author.value(forKey: "bookCount") as? Int64 == 2)
            #expect(author.value(forKey: "pageTotal") as? Int64 == 1056)
            #expect(author.value(forKey: "searchName") as? String == "emile zola")
        }
        let reader = try makeContainer(model: model, storeURL: url).newBackgroundContext()
        try reader.performAndWait {
            let books = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book"))
            #expect(Set(books.compactMap { $0.value(forKey: "authorName") as? String }) == ["Émile Zola"])
            #expect(Set(books.compactMap { $0.value(forKey: "shoutedTitle") as? String }) == ["GERMINAL", "NANA"])
            let author = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Author")).first)
            #expect(author.value(forKey: "bookCount") as? Int64 == 2)
        }
    }

    @Test func fetchesFilterAndSortOnDerivedValuesInTheStore() throws {
        let url = directory.file("Library.sqlite")
        let context = try makeContainer(model: try Self.model(), storeURL: url).newBackgroundContext()
        try context.performAndWait {
            _ = insertAuthor("Zola", books: [("Germinal", 592), ("Nana", 464)], into: context)
            _ = insertAuthor("Austen", books: [("Emma", 474)], into: context)
            _ = insertAuthor("Balzac", books: [("Eugénie Grandet", 200), ("Le Père Goriot", 300), ("Illusions perdues", 700)], into: context)
            try context.save()
            context.reset()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Author")
            request.predicate = NSPredicate(format: "bookCount >= 2")
            request.sortDescriptors = [NSSortDescriptor(key: "pageTotal", ascending: false)]
            #expect(try context.fetch(request).map { $0.value(forKey: "name") as? String } == ["Balzac", "Zola"])
        }
    }

    @Test func renamingAnAuthorRecomputesItsBooksInTheSameSave() throws {
        let context = try makeContainer(model: try Self.model(), storeURL: directory.file("Library.sqlite")).newBackgroundContext()
        try context.performAndWait {
            let author = insertAuthor("Zola", books: [("Germinal", 592), ("Nana", 464)], into: context)
            try context.save()
            author.setValue("Émile Zola", forKey: "name")
            try context.save()
            let books = author.value(forKey: "books") as? NSSet
            #expect(Set(books?.compactMap { ($0 as? NSManagedObject)?.value(forKey: "authorName") as? String } ?? []) == ["Émile Zola"])
            context.reset()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
            request.predicate = NSPredicate(format: "authorName == %@", "Émile Zola")
            #expect(try context.count(for: request) == 2)
        }
    }

    @Test func removingABookRecomputesTheAuthorsCount() throws {
        let context = try makeContainer(model: try Self.model(), storeURL: directory.file("Library.sqlite")).newBackgroundContext()
        try context.performAndWait {
            let author = insertAuthor("Zola", books: [("Germinal", 592), ("Nana", 464)], into: context)
            try context.save()
            let nana = try #require((author.value(forKey: "books") as? NSSet)?.compactMap { $0 as? NSManagedObject }
                .first { $0.value(forKey: "title") as? String == "Nana" })
            context.delete(nana)
            try context.save()
            #expect(author.value(forKey: "bookCount") as? Int64 == 1)
            #expect(author.value(forKey: "pageTotal") as? Int64 == 592)
        }
    }

    @Test func anEditThatLeavesADerivedValueAloneDoesNotDirtyTheObjectsItDerivesFrom() throws {
        let context = try makeContainer(model: try Self.model(), storeURL: directory.file("Library.sqlite")).newBackgroundContext()
        try context.performAndWait {
            let author = insertAuthor("Zola", books: [("Germinal", 592)], into: context)
            try context.save()
            let book = try #require((author.value(forKey: "books") as? NSSet)?.anyObject() as? NSManagedObject)
            let saved = SavedNotification()
            let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: context, queue: nil) {
                saved.notification = $0
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            book.setValue("Germinal (1885)", forKey: "title")
            try context.save()
            let updated = saved.notification?.userInfo?[NSUpdatedObjectsKey] as? Set<NSManagedObject>
            #expect(updated?.map(\.objectID) == [book.objectID])
            #expect(book.value(forKey: "shoutedTitle") as? String == "GERMINAL (1885)")
        }
    }

    @Test func aChildContextsChangesAreDerivedWhenTheParentWritesThem() throws {
        let container = try makeContainer(model: try Self.model(), storeURL: directory.file("Library.sqlite"))
        let parent = container.newBackgroundContext()
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        let authorID = try child.performAndWait {
            let author = insertAuthor("Zola", books: [("Germinal", 592)], into: child)
            try child.save()
            return author.objectID
        }
        try parent.performAndWait {
            let author = parent.object(with: authorID)
            #expect(author.value(forKey: "bookCount") == nil)
            try parent.save()
            #expect(author.value(forKey: "bookCount") as? Int64 == 1)
        }
    }

    @Test func aModelBuiltInCodeDerivesToo() throws {
        let name = NSAttributeDescription(name: "name", type: .stringAttributeType)
        let key = NSDerivedAttributeDescription(name: "nameKey", type: .stringAttributeType)
        key.derivationExpression = NSExpression(format: "lowercase:(name)")
        let model = NSManagedObjectModel()
        model.entities = [NSEntityDescription(name: "Tag", properties: [name, key])]
        let context = try makeContainer(model: model, storeURL: nil, type: NSInMemoryStoreType).viewContext
        let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
        tag.setValue("Swift On Linux", forKey: "name")
        try context.save()
        #expect(tag.value(forKey: "nameKey") as? String == "swift on linux")
    }
}
