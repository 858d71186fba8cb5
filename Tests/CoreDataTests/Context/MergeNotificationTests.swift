import CoreData
import Foundation
import Testing

/// What a context tells observers when it merges another context's save: merged updates under
/// `NSRefreshedObjectsKey`, merged deletions under `NSDeletedObjectsKey`, then
/// `NSManagedObjectContextDidMergeChangesObjectIDs`; and when it refreshes one object.
@Suite struct MergeNotificationTests {
    let directory = TemporaryDirectory()

    @Test func mergedUpdatesAreRefreshedDeletionsDeletedAndTheMergeIsAnnounced() throws {
        let container = try LedgerModel.container(in: directory)
        let writer = container.newBackgroundContext()
        let (editedID, deletedID) = try writer.performAndWait {
            let edited = LedgerEntry(context: writer)
            edited.title = "Edited"
            let deleted = LedgerEntry(context: writer)
            deleted.title = "Deleted"
            try writer.save()
            return (edited.objectID, deleted.objectID)
        }
        let reader = container.newBackgroundContext()
        let (edited, deleted) = reader.performAndWait { (reader.object(with: editedID), reader.object(with: deletedID)) }
        reader.performAndWait { _ = (edited as? LedgerEntry)?.title }

        let saved = Observation(name: .NSManagedObjectContextDidSave, object: writer)
        var insertedID: NSManagedObjectID?
        try writer.performAndWait {
            (writer.object(with: editedID) as? LedgerEntry)?.title = "Edited elsewhere"
            writer.delete(writer.object(with: deletedID))
            let inserted = LedgerEntry(context: writer)
            inserted.title = "Inserted elsewhere"
            try writer.save()
            insertedID = inserted.objectID
        }
        let changes = Observation(name: .NSManagedObjectContextObjectsDidChange, object: reader)
        let merged = Observation(name: NSManagedObjectContext.didMergeChangesObjectIDsNotification, object: reader)
        reader.mergeChanges(fromContextDidSave: try #require(saved.received.first))

        let userInfo = try #require(changes.received.last?.userInfo)
        #expect(userInfo[NSRefreshedObjectsKey] as? Set<NSManagedObject> == [edited])
        #expect(userInfo[NSUpdatedObjectsKey] == nil)
        #expect(userInfo[NSDeletedObjectsKey] as? Set<NSManagedObject> == [deleted])
        #expect((userInfo[NSInsertedObjectsKey] as? Set<NSManagedObject>)?.map(\.objectID) == [try #require(insertedID)])
        reader.performAndWait { #expect((edited as? LedgerEntry)?.title == "Edited elsewhere") }

        let announcement = try #require(merged.received.first)
        #expect(announcement.name == .NSManagedObjectContextDidMergeChangesObjectIDs)
        #expect(announcement.userInfo?[NSUpdatedObjectIDsKey] as? Set<NSManagedObjectID> == [editedID])
        #expect(announcement.userInfo?[NSDeletedObjectIDsKey] as? Set<NSManagedObjectID> == [deletedID])
        #expect(announcement.userInfo?[NSInsertedObjectIDsKey] as? Set<NSManagedObjectID> == [try #require(insertedID)])
    }

    @Test func aRefreshKeepingChangesPostsTheObjectRefreshedWithTheKeysThatMoved() throws {
        let container = try LedgerModel.container(in: directory)
        let writer = container.newBackgroundContext()
        let id = try writer.performAndWait {
            let entry = LedgerEntry(context: writer)
            entry.title = "Before"
            try writer.save()
            return entry.objectID
        }
        let reader = container.newBackgroundContext()
        let entry = try reader.performAndWait {
            let entry = try #require(reader.object(with: id) as? LedgerEntry)
            entry.note = "Unsaved"
            reader.processPendingChanges()
            return entry
        }
        try writer.performAndWait {
            (writer.object(with: id) as? LedgerEntry)?.title = "After"
            try writer.save()
        }

        // What observers see while the notification is delivered (the event's keys reset after).
        final class Seen: @unchecked Sendable { var refreshed: Set<NSManagedObject>?, keys: Set<String>? }
        let seen = Seen()
        let token = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextObjectsDidChange, object: reader, queue: nil) { notification in
            seen.refreshed = notification.userInfo?[NSRefreshedObjectsKey] as? Set<NSManagedObject>
            seen.keys = seen.refreshed?.first.map { Set($0.changedValuesForCurrentEvent().keys) }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        reader.performAndWait { reader.refresh(entry, mergeChanges: true) }
        #expect(seen.refreshed == [entry])
        #expect(seen.keys == ["title"])
        reader.performAndWait { #expect(entry.title == "After" && entry.note == "Unsaved") }
    }
}
