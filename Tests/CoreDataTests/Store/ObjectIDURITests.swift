import CoreData
import Foundation
import Testing

/// An object ID's URI names its entity percent-encoded outside letters and digits, whatever the
/// name, and reads back as the same ID.
@Suite struct ObjectIDURITests {
    @Test(arguments: [
        ("Team", "Team"),
        ("Team2", "Team2"),
        ("My Team", "My%20Team"),
        ("Team_2", "Team%5F2"),
    ])
    func theEntityNameIsEncodedAndReadBack(name: String, encoded: String) throws {
        let directory = TemporaryDirectory()
        let model = NSManagedObjectModel(entities: [
            NSEntityDescription(name: name, properties: [NSAttributeDescription(name: "title", type: .stringAttributeType)]),
        ])
        // In memory: a name with a space would make no SQLite table name, and the URI is the
        // coordinator's, the same for every store.
        let container = try makeContainer(model: model, storeURL: directory.file("URIs.store"), type: NSInMemoryStoreType)
        let context = container.viewContext
        let object = NSEntityDescription.insertNewObject(forEntityName: name, into: context)
        let temporary = object.objectID.uriRepresentation()
        #expect(temporary.absoluteString.hasPrefix("x-coredata:///\(encoded)/t"))
        try context.save()
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first)
        let uri = object.objectID.uriRepresentation()
        #expect(uri.absoluteString.hasPrefix("x-coredata://\(store.identifier ?? "")/\(encoded)/p"))
        #expect(container.persistentStoreCoordinator.managedObjectID(forURIRepresentation: uri) == object.objectID)
    }
}
