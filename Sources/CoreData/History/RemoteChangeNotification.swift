/// A store option: `true` posts `.NSPersistentStoreRemoteChange` whenever the store's file
/// commits, whichever coordinator or process wrote it.
public let NSPersistentStoreRemoteChangeNotificationPostOptionKey = "NSPersistentStoreRemoteChangeNotificationOptionKey"
/// The `userInfo` key of a remote-change notification's history token (present when the store
/// tracks history): the store's newest transaction when the notification was posted.
public let NSPersistentHistoryTokenKey = "historyToken"
/// The `userInfo` key of a remote-change notification's store URL: the `url` of the store
/// that changed, as the coordinator receiving the notification added it.
public let NSPersistentStoreURLKey = "storeURL"

/// The notification a store posts when its file commits.
extension Notification.Name {
    /// Posted by a coordinator (the notification's object) on a background thread when a store
    /// added with `NSPersistentStoreRemoteChangeNotificationPostOptionKey` was written, with
    /// `NSStoreUUIDKey`, `NSPersistentStoreURLKey` and (when history is tracked)
    /// `NSPersistentHistoryTokenKey` in `userInfo`.
    ///
    /// For example:
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: coordinator, queue: nil) { _ in
    ///     context.perform { mergeHistory(after: &lastToken) }
    /// }
    /// ```
    public static let NSPersistentStoreRemoteChange = Notification.Name("NSPersistentStoreRemoteChangeNotification")
}
