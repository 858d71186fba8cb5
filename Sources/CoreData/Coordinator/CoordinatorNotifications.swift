// Apple's notifications about a coordinator's list of stores, and their userInfo keys.

/// `userInfo` key of the stores-change notifications: the stores added (`[NSPersistentStore]`).
public let NSAddedPersistentStoresKey = "added"
/// `userInfo` key of the stores-change notifications: the stores removed (`[NSPersistentStore]`).
public let NSRemovedPersistentStoresKey = "removed"
/// `userInfo` key of the stores-did-change notification: an old store and the store that
/// replaced it. Declared for source compatibility: nothing here replaces a store in place.
public let NSUUIDChangedPersistentStoresKey = "changedUUID"

extension Notification.Name {
    /// Posted by a coordinator before a store is added or removed, with the store under
    /// `NSAddedPersistentStoresKey` or `NSRemovedPersistentStoresKey`.
    public static let NSPersistentStoreCoordinatorStoresWillChange = Notification.Name("NSPersistentStoreCoordinatorStoresWillChangeNotification")
    /// Posted by a coordinator after a store was added or removed, with the same keys.
    public static let NSPersistentStoreCoordinatorStoresDidChange = Notification.Name("NSPersistentStoreCoordinatorStoresDidChangeNotification")
    /// Posted while a store is being removed from its coordinator, before it closes; the
    /// notification's object is the store, and there is no `userInfo`.
    public static let NSPersistentStoreCoordinatorWillRemoveStore = Notification.Name("NSPersistentStoreCoordinatorWillRemoveStoreNotification")
}

extension NSPersistentStoreCoordinator {
    /// Posts the will-change notification for `added` or `removed`, runs `change`, then posts
    /// the did-change notification: the frame of every change to the list of stores.
    func changingStores<T>(added: [NSPersistentStore] = [], removed: [NSPersistentStore] = [], _ change: () throws -> T) rethrows -> T {
        var userInfo: [AnyHashable: Any] = [:]
        if !added.isEmpty { userInfo[NSAddedPersistentStoresKey] = added }
        if !removed.isEmpty { userInfo[NSRemovedPersistentStoresKey] = removed }
        NotificationCenter.default.post(name: .NSPersistentStoreCoordinatorStoresWillChange, object: self, userInfo: userInfo)
        let result = try change()
        NotificationCenter.default.post(name: .NSPersistentStoreCoordinatorStoresDidChange, object: self, userInfo: userInfo)
        return result
    }
}
