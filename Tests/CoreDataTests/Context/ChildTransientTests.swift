import CoreData
import Foundation
import Testing

/// A child context's save hands its transient attribute values to its parent, as on Apple
/// platforms; they never reach the store.
@Suite struct ChildTransientTests {
    let directory = TemporaryDirectory()

    @Test func aChildsSavePushesTransientValuesToItsParent() throws {
        let container = try LedgerModel.container(in: directory)
        let parent = container.newBackgroundContext()
        let stored = try parent.performAndWait {
            let stored = LedgerEntry(context: parent)
            stored.title = "Stored"
            try parent.save()
            return stored
        }
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        let newID = try child.performAndWait {
            let new = LedgerEntry(context: child)
            new.title = "New"
            new.note = "note on a new object"
            (child.object(with: stored.objectID) as? LedgerEntry)?.note = "note on a stored object"
            try child.save()
            return new.objectID
        }
        try parent.performAndWait {
            #expect(stored.note == "note on a stored object")
            #expect((parent.object(with: newID) as? LedgerEntry)?.note == "note on a new object")
            try parent.save()
        }
        let reader = container.newBackgroundContext()
        reader.performAndWait {
            #expect((reader.object(with: stored.objectID) as? LedgerEntry)?.note == nil, "transient values are not stored")
        }
    }
}
