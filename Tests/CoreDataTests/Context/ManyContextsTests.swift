import CoreData
import Foundation
import Testing

@Suite struct ManyContextsTests {
    let directory = TemporaryDirectory()

    func container() throws -> NSPersistentContainer {
        try makeContainer(model: TestModels.dogWalk(), storeURL: directory.file("Many.sqlite"))
    }

    @Test func childSavePushesToParentNotToDiskUntilParentSaves() throws {
        let container = try container()
        let parent = container.newBackgroundContext()
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        let dogID: NSManagedObjectID = try child.performAndWait {
            let dog = Dog(context: child)
            dog.name = "Rex"
            Walk(context: child).dog = dog
            try child.save()
            return dog.objectID
        }
        let outsider = container.newBackgroundContext()
        #expect(try outsider.performAndWait { try outsider.count(for: NSFetchRequest<Dog>(entityName: "Dog")) } == 0)
        try parent.performAndWait {
            let dog = try #require(parent.registeredObject(for: dogID) as? Dog)
            #expect(dog.name == "Rex")
            #expect(dog.walks?.count == 1)
            #expect(parent.hasChanges)
            try parent.save()
            #expect(dog.objectID.isTemporaryID == false)
        }
        let reader = container.newBackgroundContext()
        let names = try reader.performAndWait { try reader.fetch(NSFetchRequest<Dog>(entityName: "Dog")).map(\.name) }
        #expect(names == ["Rex"])
    }

    @Test func childFetchSeesParentsUnsavedObjectsAndDiscardingLosesNothing() throws {
        let container = try container()
        let parent = container.newBackgroundContext()
        try parent.performAndWait {
            Dog(context: parent).name = "Saved"
            try parent.save()
            Dog(context: parent).name = "Unsaved"
        }
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        try child.performAndWait {
            let dogs = try child.fetch(NSFetchRequest<Dog>(entityName: "Dog"))
            #expect(Set(dogs.compactMap(\.name)) == ["Saved", "Unsaved"])
            dogs.first { $0.name == "Saved" }?.name = "Edited in scratchpad"
            // Discard the scratchpad: the child is simply dropped.
        }
        try parent.performAndWait {
            let names = try parent.fetch(NSFetchRequest<Dog>(entityName: "Dog")).compactMap(\.name)
            #expect(Set(names) == ["Saved", "Unsaved"])
        }
    }

    @Test func backgroundSaveMergesIntoAnotherContextAutomatically() async throws {
        let container = try container()
        let viewer = container.newBackgroundContext()
        viewer.automaticallyMergesChangesFromParent = true
        // Held here: the viewer keeps an unchanged object only while someone references it.
        let viewersDog: Dog = try await viewer.perform {
            let dog = Dog(context: viewer)
            dog.name = "Before"
            try viewer.save()
            return dog
        }
        let dogID = viewersDog.objectID
        let changed = Observation(name: .NSManagedObjectContextObjectsDidChange, object: viewer)
        let writer = container.newBackgroundContext()
        try await writer.perform {
            let dog = try #require(try writer.existingObject(with: dogID) as? Dog)
            dog.name = "After"
            Dog(context: writer).name = "New"
            try writer.save()
        }
        try await changed.wait()
        let names = try await viewer.perform {
            (
                (viewer.registeredObject(for: dogID) === viewersDog ? viewersDog.name : nil),
                try viewer.fetch(NSFetchRequest<Dog>(entityName: "Dog")).compactMap(\.name).sorted()
            )
        }
        #expect(names.0 == "After")
        #expect(names.1 == ["After", "New"])
    }

    @Test func saveNotificationsCarryObjectsAndIDs() throws {
        let container = try container()
        let context = container.newBackgroundContext()
        let saved = Observation(name: .NSManagedObjectContextDidSaveObjectIDs, object: context)
        try context.performAndWait {
            Dog(context: context).name = "Notified"
            try context.save()
        }
        let userInfo = try #require(saved.received.first?.userInfo)
        let inserted = try #require(userInfo[NSInsertedObjectIDsKey] as? Set<NSManagedObjectID>)
        #expect(inserted.count == 1)
        #expect(inserted.first?.isTemporaryID == false)
    }

    @Test func conflictingSaveUnderErrorPolicyThrows133020AndKeepsBothSides() throws {
        let container = try container()
        let first = container.newBackgroundContext()
        let second = container.newBackgroundContext()
        let dogID: NSManagedObjectID = try first.performAndWait {
            let dog = Dog(context: first)
            dog.name = "Original"
            try first.save()
            return dog.objectID
        }
        try second.performAndWait {
            let dog = try #require(try second.existingObject(with: dogID) as? Dog)
            _ = dog.name
        }
        try first.performAndWait {
            (first.object(with: dogID) as? Dog)?.name = "First"
            try first.save()
        }
        let error = second.performAndWait { () -> NSError? in
            (second.registeredObject(for: dogID) as? Dog)?.name = "Second"
            do { try second.save(); return nil } catch { return error as NSError }
        }
        #expect(error?.code == NSManagedObjectMergeError)
        #expect((error?.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict])?.count == 1)
        #expect(second.performAndWait { second.hasChanges })
        let reader = container.newBackgroundContext()
        let stored = try reader.performAndWait { try (reader.existingObject(with: dogID) as? Dog)?.name }
        #expect(stored == "First")

        second.performAndWait { second.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy }
        try second.performAndWait { try second.save() }
        let later = container.newBackgroundContext()
        let merged = try later.performAndWait { try (later.existingObject(with: dogID) as? Dog)?.name }
        #expect(merged == "Second")
    }
}

/// Records notifications of one name from one sender; `wait()` suspends until the first arrives.
final class Observation: @unchecked Sendable {
    private let lock = NSLock()
    private var notifications: [Notification] = []
    private var token: NSObjectProtocol?

    init(name: Notification.Name, object: AnyObject) {
        token = NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) { [weak self] notification in
            guard let self else { return }
            self.lock.withLock { self.notifications.append(notification) }
        }
    }

    deinit { if let token { NotificationCenter.default.removeObserver(token) } }

    var received: [Notification] { lock.withLock { notifications } }

    func wait(timeout: Duration = .seconds(5)) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while received.isEmpty {
            guard clock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
