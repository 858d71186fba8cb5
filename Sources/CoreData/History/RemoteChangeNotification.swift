/// A store option: `true` posts `.NSPersistentStoreRemoteChange` whenever the store's file
/// commits, whichever coordinator or process wrote it.
public let NSPersistentStoreRemoteChangeNotificationPostOptionKey = "NSPersistentStoreRemoteChangeNotificationOptionKey"
/// The `userInfo` key of a remote-change notification's history token (present when the store
/// tracks history): the store's newest transaction when the notification was posted.
public let NSPersistentHistoryTokenKey = "historyToken"

/// The notification a store posts when its file commits.
extension Notification.Name {
    /// Posted by a coordinator (the notification's object) on a background thread when a store
    /// added with `NSPersistentStoreRemoteChangeNotificationPostOptionKey` was written, with
    /// `NSStoreUUIDKey` and `NSPersistentHistoryTokenKey` in `userInfo`.
    ///
    /// For example:
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: coordinator, queue: nil) { _ in
    ///     context.perform { mergeHistory(after: &lastToken) }
    /// }
    /// ```
    public static let NSPersistentStoreRemoteChange = Notification.Name("NSPersistentStoreRemoteChangeNotification")
}
