import CoreData
import Foundation
import Testing

/// A subclass that overrides the designated initialiser privately, as JSQCoreDataKit's do.
final class Journal: NSManagedObject {
    @Managed var title: String?
    private(set) var madeThroughOverride = false

    private override init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        super.init(entity: entity, insertInto: context)
        madeThroughOverride = true
    }

    convenience init(context: NSManagedObjectContext, title: String) {
        self.init(context: context)
        self.title = title
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
        #expect(made.madeThroughOverride && inserted.madeThroughOverride)
        #expect(inserted.managedObjectContext === context && inserted.isInserted)
        try context.save()

        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let request = NSFetchRequest<Journal>(entityName: "Journal")
            request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
            let fetched = try reader.fetch(request)
            #expect(fetched.map(\.title) == ["inserted", "made"])
            #expect(fetched.allSatisfy { $0.madeThroughOverride })
        }
    }
}
