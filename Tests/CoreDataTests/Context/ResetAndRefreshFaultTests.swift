import CoreData
import Foundation
import Testing

/// `reset()` and `refresh(_:mergeChanges: false)` turn objects into faults, as on Apple
/// platforms, and `reset()` tells observers every object is invalid.
@Suite struct ResetAndRefreshFaultTests {
    let directory = TemporaryDirectory()

    @Test func resetTurnsEveryObjectIntoAFaultAndPostsInvalidatedAll() throws {
        let container = try LedgerModel.container(in: directory)
        let context = container.newBackgroundContext()
        let (saved, inserted) = try context.performAndWait {
            let saved = LedgerEntry(context: context)
            saved.title = "Saved"
            try context.save()
            let inserted = LedgerEntry(context: context)
            inserted.title = "Inserted"
            return (saved, inserted)
        }
        let changes = Observation(name: .NSManagedObjectContextObjectsDidChange, object: context)
        let ids = [saved.objectID, inserted.objectID]
        context.reset()
        for object in [saved, inserted] {
            #expect(object.isFault)
            #expect(object.managedObjectContext == nil)
            #expect(!object.isInserted)
        }
        let invalidated = try #require(changes.received.last?.userInfo?[NSInvalidatedAllObjectsKey] as? [NSManagedObjectID])
        #expect(Set(invalidated) == Set(ids))
        context.performAndWait {
            #expect(context.registeredObjects.isEmpty && !context.hasChanges)
            #expect((context.object(with: saved.objectID) as? LedgerEntry)?.title == "Saved")
        }
    }

    @Test func refreshWithoutMergingTurnsAStoredObjectIntoAFaultAndDropsItsChanges() throws {
        let container = try LedgerModel.container(in: directory)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let entry = LedgerEntry(context: context)
            entry.title = "Stored"
            try context.save()
            entry.title = "Unsaved"
            context.refresh(entry, mergeChanges: false)
            #expect(entry.isFault)
            #expect(!context.hasChanges)
            #expect(entry.title == "Stored")
            #expect(!entry.isFault)
            // An object without changes becomes a fault either way.
            context.refresh(entry, mergeChanges: true)
            #expect(entry.isFault)
        }
    }
}
