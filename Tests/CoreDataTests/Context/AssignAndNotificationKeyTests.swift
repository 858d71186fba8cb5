import CoreData
import Foundation
import Testing

/// `assign(_:to:)` and the typed `NSManagedObjectContext.NotificationKey`.
@Suite struct AssignAndNotificationKeyTests {
    let directory = TemporaryDirectory()

    @Test func assigningANewObjectToItsCoordinatorsStoreSavesItThere() throws {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite"))
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first)
        let context = container.newBackgroundContext()
        let savedStore = try context.performAndWait {
            let ada = context.insertPerson("Ada")
            context.assign(ada, to: store)
            try context.save()
            return ada.objectID.persistentStore
        }
        #expect(savedStore === store)
    }

    @Test func assigningToAnotherCoordinatorsStoreMakesTheSaveThrow() throws {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite"))
        let other = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("Other.sqlite"))
        let foreignStore = try #require(other.persistentStoreCoordinator.persistentStores.first)
        let context = container.newBackgroundContext()
        let error = context.performAndWait { () -> NSError? in
            context.assign(context.insertPerson("Ada"), to: foreignStore)
            do { try context.save(); return nil } catch { return error as NSError }
        }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(try container.newBackgroundContext().storedPeople().isEmpty)
    }

    @Test func assigningAnObjectThatIsNotNewMakesTheSaveThrow() throws {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite"))
        let store = try #require(container.persistentStoreCoordinator.persistentStores.first)
        let context = container.newBackgroundContext()
        let error = try context.performAndWait { () -> NSError? in
            let ada = context.insertPerson("Ada")
            try context.save()
            context.assign(ada, to: store)
            ada.setValue(Int64(3), forKey: "age")
            do { try context.save(); return nil } catch { return error as NSError }
        }
        #expect(error != nil)
    }

    @Test func notificationKeysAreTheStringKeysTheNotificationsUse() throws {
        typealias Key = NSManagedObjectContext.NotificationKey
        #expect(Key.insertedObjects.rawValue == NSInsertedObjectsKey)
        #expect(Key.deletedObjectIDs.rawValue == NSDeletedObjectIDsKey)
        #expect(Key.invalidatedAllObjects.rawValue == NSInvalidatedAllObjectsKey)
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite"))
        let context = container.newBackgroundContext()
        let saved = SavedNotification()
        let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: context, queue: nil) {
            saved.notification = $0
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try context.performAndWait {
            context.insertPerson("Ada")
            try context.save()
        }
        let inserted = saved.notification?.userInfo?[Key.insertedObjects.rawValue] as? Set<NSManagedObject>
        #expect(inserted?.count == 1)
    }
}
