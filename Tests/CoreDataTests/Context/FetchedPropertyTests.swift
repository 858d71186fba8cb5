import CoreData
import Foundation
import Testing

/// Fetched properties (`NSFetchedPropertyDescription`) fetch lazily per object with
/// `$FETCH_SOURCE` bound, keep their results until the object is refreshed, and store nothing.
@Suite struct FetchedPropertyTests {
    let directory = TemporaryDirectory()

    /// Shelves and books linked only by a shared genre string, with a fetched property
    /// `sameGenre` on the shelf, as Xcode writes one.
    static func model() throws -> NSManagedObjectModel {
        let xml = ModelFiles.modelXML("""
            <entity name="Shelf" representedClassName="NSManagedObject" syncable="YES">
                <attribute name="genre" optional="YES" attributeType="String"/>
                <fetchedProperty name="sameGenre" optional="YES">
                    <fetchRequest name="fetchedPropertyFetchRequest" entity="Book" predicateString="genre == $FETCH_SOURCE.genre"/>
                </fetchedProperty>
            </entity>
            <entity name="Book" representedClassName="NSManagedObject" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                <attribute name="genre" optional="YES" attributeType="String"/>
            </entity>
            """)
        return try #require(NSManagedObjectModel(contentsOf: try ModelFiles.contentsFile(xml)))
    }

    private func insert(_ entity: String, _ values: [String: Any], into context: NSManagedObjectContext) -> NSManagedObject {
        let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
        object.setValuesForKeys(values)
        return object
    }

    private func titles(_ value: Any?) -> Set<String> {
        Set(((value as? [Any]) ?? []).compactMap { ($0 as? NSManagedObject)?.value(forKey: "title") as? String })
    }

    @Test func theModelReaderMakesAFetchedPropertyWithItsRequest() throws {
        let shelf = try #require(try Self.model().entitiesByName["Shelf"])
        let fetched = try #require(shelf.propertiesByName["sameGenre"] as? NSFetchedPropertyDescription)
        #expect(fetched.fetchRequest?.entityName == "Book")
        #expect(shelf.attributesByName["sameGenre"] == nil && shelf.relationshipsByName["sameGenre"] == nil)
    }

    @Test func readingAFetchedPropertyFetchesWithTheObjectAsFetchSource() throws {
        let context = try makeContainer(model: try Self.model(), storeURL: directory.file("Shelves.sqlite")).newBackgroundContext()
        try context.performAndWait {
            let novels = insert("Shelf", ["genre": "novel"], into: context)
            _ = insert("Book", ["title": "Germinal", "genre": "novel"], into: context)
            _ = insert("Book", ["title": "Nana", "genre": "novel"], into: context)
            _ = insert("Book", ["title": "Les Fleurs du mal", "genre": "poetry"], into: context)
            try context.save()
            #expect(titles(novels.value(forKey: "sameGenre")) == ["Germinal", "Nana"])
        }
    }

    @Test func resultsAreKeptUntilTheObjectIsRefreshed() throws {
        let context = try makeContainer(model: try Self.model(), storeURL: directory.file("Shelves.sqlite")).newBackgroundContext()
        try context.performAndWait {
            let novels = insert("Shelf", ["genre": "novel"], into: context)
            _ = insert("Book", ["title": "Germinal", "genre": "novel"], into: context)
            try context.save()
            #expect(titles(novels.value(forKey: "sameGenre")) == ["Germinal"])
            _ = insert("Book", ["title": "Nana", "genre": "novel"], into: context)
            try context.save()
            #expect(titles(novels.value(forKey: "sameGenre")) == ["Germinal"])
            context.refresh(novels, mergeChanges: true)
            #expect(titles(novels.value(forKey: "sameGenre")) == ["Germinal", "Nana"])
        }
    }

    @Test func aFetchedPropertyIsNeitherStoredNorAChange() throws {
        let url = directory.file("Shelves.sqlite")
        let model = try Self.model()
        let context = try makeContainer(model: model, storeURL: url).newBackgroundContext()
        try context.performAndWait {
            let novels = insert("Shelf", ["genre": "novel"], into: context)
            try context.save()
            _ = novels.value(forKey: "sameGenre")
            #expect(!novels.hasChanges)
            #expect(novels.changedValues().isEmpty)
            #expect(novels.committedValues(forKeys: nil)["sameGenre"] == nil)
        }
        // The store has no column for it, and reopening it with the same model works.
        let reopened = try makeContainer(model: model, storeURL: url).newBackgroundContext()
        #expect(try reopened.performAndWait { try reopened.count(for: NSFetchRequest<NSManagedObject>(entityName: "Shelf")) } == 1)
    }

    @Test func aModelBuiltInCodeCanDeclareOne() throws {
        let genre = NSAttributeDescription(name: "genre", type: .stringAttributeType)
        let title = NSAttributeDescription(name: "title", type: .stringAttributeType)
        let book = NSEntityDescription(name: "Book", properties: [title, genre])
        let sameGenre = NSFetchedPropertyDescription()
        sameGenre.name = "sameGenre"
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Book")
        request.predicate = NSPredicate(format: "genre == $FETCH_SOURCE.genre AND SELF != $FETCH_SOURCE")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        sameGenre.fetchRequest = request
        book.properties = [title, genre, sameGenre]
        let model = NSManagedObjectModel()
        model.entities = [book]
        let context = try makeContainer(model: model, storeURL: nil, type: NSInMemoryStoreType).viewContext
        let germinal = insert("Book", ["title": "Germinal", "genre": "novel"], into: context)
        _ = insert("Book", ["title": "Nana", "genre": "novel"], into: context)
        _ = insert("Book", ["title": "Au Bonheur des Dames", "genre": "novel"], into: context)
        try context.save()
        let others = (germinal.value(forKey: "sameGenre") as? [NSManagedObject])?.compactMap { $0.value(forKey: "title") as? String }
        #expect(others == ["Au Bonheur des Dames", "Nana"])
    }
}
