import CoreData
import Foundation
import Testing

/// Apple's pattern for a hand-written accessor (`willChangeValue`, `setPrimitiveValue`,
/// `didChangeValue`) records a change that the next save writes.
final class JournalNote: NSManagedObject {
    var text: String? {
        get {
            willAccessValue(forKey: "text")
            defer { didAccessValue(forKey: "text") }
            return primitiveValue(forKey: "text") as? String
        }
        set {
            willChangeValue(forKey: "text")
            setPrimitiveValue(newValue, forKey: "text")
            didChangeValue(forKey: "text")
        }
    }
}

@Suite struct HandWrittenSetterTests {
    let directory = TemporaryDirectory()
    let model = NSManagedObjectModel(entities: [
        NSEntityDescription(name: "Note", className: "JournalNote", properties: [
            NSAttributeDescription(name: "text", type: .stringAttributeType),
        ]),
    ])

    func storedText(_ container: NSPersistentContainer) throws -> String? {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait { try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")).first?.value(forKey: "text") as? String }
    }

    @Test func aSetterCallingSetPrimitiveValueBetweenChangeNotificationsIsSaved() throws {
        let container = try makeContainer("Notes", model: model, storeURL: directory.file("Notes.sqlite"))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let note = try #require(NSEntityDescription.insertNewObject(forEntityName: "Note", into: context) as? JournalNote)
            note.text = "first"
            try context.save()
            note.text = "second"
            #expect(note.isUpdated)
            #expect(note.changedValues()["text"] as? String == "second")
            try context.save()
        }
        #expect(try storedText(container) == "second")
    }

    @Test func aPrimitiveValueSetWithoutNotificationsIsNotAChange() throws {
        let container = try makeContainer("Notes", model: model, storeURL: directory.file("Notes.sqlite"))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            note.setValue("first", forKey: "text")
            try context.save()
            note.setPrimitiveValue("quiet", forKey: "text")
            #expect(!note.isUpdated)
            #expect(!context.hasChanges)
        }
    }
}
