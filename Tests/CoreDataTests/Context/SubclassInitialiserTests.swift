import CoreData
import Foundation
import Testing

/// A subclass shaped as JSQCoreDataKit's: a designated initialiser of its own, and the
/// inherited designated initialiser overridden privately.
final class Journal: NSManagedObject {
    @Managed var title: String?
    private(set) var madeThroughOverride = false

    init(context: NSManagedObjectContext, title: String) {
        super.init(entity: NSEntityDescription.entity(forEntityName: "Journal", in: context)!, insertInto: context)
        self.title = title
    }

    private override init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        super.init(entity: entity, insertInto: context)
        madeThroughOverride = true
    }
}

/// `init(entity:insertInto:)` is a designated initialiser subclasses override, and every way
/// the framework makes objects goes through the override.
@Suite struct SubclassInitialiserTests {
    static func model() -> NSManagedObjectModel {
        NSManagedObjectModel(entities: [
            NSEntityDescription(name: "Journal", className: "Journal", properties: [
                NSAttributeDescription(name: "title", type: .stringAttributeType),
            ]),
        ])
    }

    @Test func privateOverrideOfDesignatedInitialiserRunsForEveryObject() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(model: Self.model(), storeURL: directory.file("Journals.sqlite"))
        let context = container.viewContext
        let made = Journal(context: context, title: "made")
        let inserted = try #require(NSEntityDescription.insertNewObject(forEntityName: "Journal", into: context) as? Journal)
        inserted.title = "inserted"
        let plain = Journal(context: context)
        plain.title = "plain"
        #expect(!made.madeThroughOverride)
        #expect(inserted.madeThroughOverride && plain.madeThroughOverride)
        #expect(inserted.managedObjectContext === context && inserted.isInserted)
        try context.save()

        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let request = NSFetchRequest<Journal>(entityName: "Journal")
            request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
            let fetched = try reader.fetch(request)
            #expect(fetched.map(\.title) == ["inserted", "made", "plain"])
            #expect(fetched.allSatisfy { $0.madeThroughOverride })
        }
    }

    @Test func theMetatypeFormsMakeObjectsThroughTheOverride() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(model: Self.model(), storeURL: directory.file("Journals.sqlite"))
        let context = container.viewContext
        let viaSelf = Journal.inserted(into: context)
        let entity = try #require(container.managedObjectModel.entitiesByName["Journal"])
        let viaMake = Journal.make(entity: entity, insertInto: context)
        #expect(viaSelf.madeThroughOverride && viaMake.madeThroughOverride)
        #expect(viaSelf.isInserted && viaMake.isInserted)
        viaSelf.title = "self"
        viaMake.title = "make"
        try context.save()
        #expect(try context.count(for: NSFetchRequest<Journal>(entityName: "Journal")) == 2)
    }
}

/// `Self(context:)` in an extension, as generic helpers written for Apple platforms call it.
extension NSManagedObject {
    static func inserted(into context: NSManagedObjectContext) -> Self {
        Self(context: context)
    }
}
