import CoreData
import Foundation
import Testing

/// A coordinator announces changes to its list of stores as Apple's does: stores-will-change
/// and stores-did-change around adding and removing a store, with the store under
/// `NSAddedPersistentStoresKey` or `NSRemovedPersistentStoresKey`, and will-remove-store,
/// whose object is the store, before a removal.
@Suite struct StoreListNotificationTests {
    let directory = TemporaryDirectory()

    @Test func addingAndRemovingAStoreIsAnnouncedWithApplesKeys() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestModels.dogWalk())
        let order = LockedLog()
        let names: [Notification.Name] = [.NSPersistentStoreCoordinatorStoresWillChange, .NSPersistentStoreCoordinatorStoresDidChange,
                                          .NSPersistentStoreCoordinatorWillRemoveStore]
        let tokens = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { notification in
                guard notification.object as AnyObject === coordinator
                        || (notification.object as? NSPersistentStore)?.persistentStoreCoordinator === coordinator else { return }
                order.append(notification.name.rawValue)
            }
        }
        defer { tokens.forEach(NotificationCenter.default.removeObserver) }
        let willChange = Observation(name: .NSPersistentStoreCoordinatorStoresWillChange, object: coordinator)
        let didChange = Observation(name: .NSPersistentStoreCoordinatorStoresDidChange, object: coordinator)

        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil,
                                                       at: directory.file("Stores.sqlite"))
        #expect(order.items == [names[0], names[1]].map(\.rawValue))
        for notification in [willChange.received.first, didChange.received.first] {
            #expect((notification?.userInfo?[NSAddedPersistentStoresKey] as? [NSPersistentStore])?.first === store)
            #expect(notification?.userInfo?[NSRemovedPersistentStoresKey] == nil)
        }

        let willRemove = Observation(name: .NSPersistentStoreCoordinatorWillRemoveStore, object: store)
        try coordinator.remove(store)
        #expect(order.items == [names[0], names[1], names[0], names[2], names[1]].map(\.rawValue))
        #expect(willRemove.received.count == 1 && willRemove.received.first?.userInfo == nil)
        for notification in [willChange.received.last, didChange.received.last] {
            #expect((notification?.userInfo?[NSRemovedPersistentStoresKey] as? [NSPersistentStore])?.first === store)
            #expect(notification?.userInfo?[NSAddedPersistentStoresKey] == nil)
        }
        #expect(coordinator.persistentStores.isEmpty)
    }
}
