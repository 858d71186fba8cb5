import CoreData
import Foundation
import Testing

/// The notifications a context posts, with Apple's keys, and the ways other contexts take in a
/// save: `mergeChanges(fromContextDidSave:)`, `refreshAllObjects()`, `stalenessInterval`.
@Suite struct ContextNotificationTests {
    let directory = TemporaryDirectory()

    /// A store with dogs "Kept", "Edited" and "Deleted".
    func seeded() throws -> NSPersistentContainer {
        let container = try makeContainer(model: TestModels.dogWalk(), storeURL: directory.file("Notes.sqlite"))
        let seeder = container.newBackgroundContext()
        try seeder.performAndWait {
            for name in ["Kept", "Edited", "Deleted"] { Dog(context: seeder).name = name }
            try seeder.save()
        }
        return container
    }

    func dogs(_ context: NSManagedObjectContext) throws -> [String: Dog] {
        try context.performAndWait {
            Dictionary(uniqueKeysWithValues: try context.fetch(NSFetchRequest<Dog>(entityName: "Dog")).map { ($0.name ?? "", $0) })
        }
    }

    @Test func objectsDidChangeReportsInsertedUpdatedDeletedAndRefreshed() throws {
        let context = try seeded().newBackgroundContext()
        let byName = try dogs(context)
        let changes = Observation(name: .NSManagedObjectContextObjectsDidChange, object: context)
        let new = context.performAndWait {
            let new = Dog(context: context)
            new.name = "New"
            byName["Edited"]?.name = "Edited again"
            context.delete(byName["Deleted"]!)
            context.processPendingChanges()
            return new
        }
        let userInfo = try #require(changes.received.last?.userInfo)
        #expect(userInfo[NSInsertedObjectsKey] as? Set<NSManagedObject> == [new])
        #expect(userInfo[NSUpdatedObjectsKey] as? Set<NSManagedObject> == [byName["Edited"]!])
        #expect(userInfo[NSDeletedObjectsKey] as? Set<NSManagedObject> == [byName["Deleted"]!])
        context.refreshAllObjects()
        let refreshed = try #require(changes.received.last?.userInfo?[NSRefreshedObjectsKey] as? Set<NSManagedObject>)
        #expect(refreshed.contains(byName["Kept"]!))
    }

    @Test func saveNotificationsComeInOrderWithApplesKeys() throws {
        let context = try seeded().newBackgroundContext()
        let byName = try dogs(context)
        let order = LockedLog()
        let tokens = [Notification.Name.NSManagedObjectContextWillSave, .NSManagedObjectContextDidSave, .NSManagedObjectContextDidSaveObjectIDs].map { name in
            NotificationCenter.default.addObserver(forName: name, object: context, queue: nil) { order.append($0.name.rawValue) }
        }
        defer { tokens.forEach(NotificationCenter.default.removeObserver) }
        let didSave = Observation(name: .NSManagedObjectContextDidSave, object: context)
        let didSaveIDs = Observation(name: .NSManagedObjectContextDidSaveObjectIDs, object: context)
        let new = try context.performAndWait {
            let new = Dog(context: context)
            new.name = "New"
            byName["Edited"]?.name = "Edited again"
            context.delete(byName["Deleted"]!)
            try context.save()
            return new
        }
        #expect(order.items == [Notification.Name.NSManagedObjectContextWillSave, .NSManagedObjectContextDidSave, .NSManagedObjectContextDidSaveObjectIDs].map(\.rawValue))
        let objects = try #require(didSave.received.first?.userInfo)
        #expect(objects[NSInsertedObjectsKey] as? Set<NSManagedObject> == [new])
        #expect(objects[NSUpdatedObjectsKey] as? Set<NSManagedObject> == [byName["Edited"]!])
        #expect(objects[NSDeletedObjectsKey] as? Set<NSManagedObject> == [byName["Deleted"]!])
        let ids = try #require(didSaveIDs.received.first?.userInfo)
        #expect(ids[NSInsertedObjectIDsKey] as? Set<NSManagedObjectID> == [new.objectID])
        #expect(ids[NSUpdatedObjectIDsKey] as? Set<NSManagedObjectID> == [byName["Edited"]!.objectID])
        #expect(ids[NSDeletedObjectIDsKey] as? Set<NSManagedObjectID> == [byName["Deleted"]!.objectID])
        #expect((ids[NSInsertedObjectIDsKey] as? Set<NSManagedObjectID>)?.allSatisfy { !$0.isTemporaryID } == true)
    }

    @Test func mergeChangesFromContextDidSaveBringsInAnotherContextsSave() throws {
        let container = try seeded()
        let reader = container.newBackgroundContext()
        let readerDogs = try dogs(reader)
        let writer = container.newBackgroundContext()
        let saved = Observation(name: .NSManagedObjectContextDidSave, object: writer)
        let writerDogs = try dogs(writer)
        try writer.performAndWait {
            writerDogs["Edited"]?.name = "Edited elsewhere"
            writer.delete(writerDogs["Deleted"]!)
            Dog(context: writer).name = "Inserted elsewhere"
            try writer.save()
        }
        let notification = try #require(saved.received.first)
        reader.mergeChanges(fromContextDidSave: notification)
        try reader.performAndWait {
            #expect(readerDogs["Edited"]?.name == "Edited elsewhere")
            #expect(reader.registeredObject(for: readerDogs["Deleted"]!.objectID) == nil)
            let names = try reader.fetch(NSFetchRequest<Dog>(entityName: "Dog")).compactMap(\.name).sorted()
            #expect(names == ["Edited elsewhere", "Inserted elsewhere", "Kept"])
        }
    }

    @Test func refreshAllObjectsReadsOtherSavesAndKeepsUnsavedChanges() throws {
        let container = try seeded()
        let reader = container.newBackgroundContext()
        reader.stalenessInterval = 0
        #expect(reader.stalenessInterval == 0)
        let readerDogs = try dogs(reader)
        reader.performAndWait { readerDogs["Kept"]?.name = "Unsaved here" }
        let writer = container.newBackgroundContext()
        let writerDogs = try dogs(writer)
        try writer.performAndWait {
            writerDogs["Edited"]?.name = "Saved there"
            try writer.save()
        }
        reader.performAndWait {
            #expect(readerDogs["Edited"]?.name == "Edited", "a loaded object keeps its values until refreshed")
            reader.refreshAllObjects()
            #expect(readerDogs["Edited"]?.name == "Saved there")
            #expect(readerDogs["Kept"]?.name == "Unsaved here")
            #expect(reader.hasChanges)
        }
    }

    @Test func editsInADiscardedChildNeverReachTheParentOrTheStore() throws {
        let container = try seeded()
        let parent = container.newBackgroundContext()
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        let parentChanged = Observation(name: .NSManagedObjectContextObjectsDidChange, object: parent)
        try child.performAndWait {
            let byName = try dogs(child)
            byName["Kept"]?.name = "Scratch"
            child.delete(byName["Deleted"]!)
            Dog(context: child).name = "Scratch new"
            child.rollback()
            #expect(!child.hasChanges)
            #expect(byName["Kept"]?.name == "Kept")
        }
        #expect(parentChanged.received.isEmpty)
        #expect(try Set(dogs(container.newBackgroundContext()).keys) == ["Kept", "Edited", "Deleted"])
    }
}
