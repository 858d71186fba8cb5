// Apple's context notification names and userInfo keys.

public let NSInsertedObjectsKey = NSManagedObjectContext.NotificationKey.insertedObjects.rawValue
public let NSUpdatedObjectsKey = NSManagedObjectContext.NotificationKey.updatedObjects.rawValue
public let NSDeletedObjectsKey = NSManagedObjectContext.NotificationKey.deletedObjects.rawValue
public let NSRefreshedObjectsKey = NSManagedObjectContext.NotificationKey.refreshedObjects.rawValue
public let NSInvalidatedObjectsKey = NSManagedObjectContext.NotificationKey.invalidatedObjects.rawValue
public let NSInvalidatedAllObjectsKey = NSManagedObjectContext.NotificationKey.invalidatedAllObjects.rawValue
public let NSInsertedObjectIDsKey = NSManagedObjectContext.NotificationKey.insertedObjectIDs.rawValue
public let NSUpdatedObjectIDsKey = NSManagedObjectContext.NotificationKey.updatedObjectIDs.rawValue
public let NSDeletedObjectIDsKey = NSManagedObjectContext.NotificationKey.deletedObjectIDs.rawValue
public let NSRefreshedObjectIDsKey = NSManagedObjectContext.NotificationKey.refreshedObjectIDs.rawValue
public let NSInvalidatedObjectIDsKey = NSManagedObjectContext.NotificationKey.invalidatedObjectIDs.rawValue

extension Notification.Name {
    /// Posted at `processPendingChanges()` with the objects inserted, updated, deleted or
    /// refreshed since the last one.
    public static let NSManagedObjectContextObjectsDidChange = Notification.Name("NSObjectsChangedInManagingContextNotification")
    public static let NSManagedObjectContextWillSave = Notification.Name("NSManagingContextWillSaveChangesNotification")
    public static let NSManagedObjectContextDidSave = Notification.Name("NSManagingContextDidSaveChangesNotification")
    /// The save notification with object IDs only, safe to hand to any queue.
    public static let NSManagedObjectContextDidSaveObjectIDs = Notification.Name("NSManagedObjectContextDidSaveObjectIDsNotification")
    public static let NSManagedObjectContextDidMergeChangesObjectIDs = Notification.Name("NSManagedObjectContextDidMergeChangesObjectIDsNotification")
}

extension NSManagedObjectContext {
    public static let didChangeObjectsNotification = Notification.Name.NSManagedObjectContextObjectsDidChange
    public static let willSaveObjectsNotification = Notification.Name.NSManagedObjectContextWillSave
    public static let didSaveObjectsNotification = Notification.Name.NSManagedObjectContextDidSave
    public static let didSaveObjectIDsNotification = Notification.Name.NSManagedObjectContextDidSaveObjectIDs
    public static let didMergeChangesObjectIDsNotification = Notification.Name.NSManagedObjectContextDidMergeChangesObjectIDs
}

extension NSManagedObjectContext {
    /// The `userInfo` keys of the context's notifications, typed; the string constants
    /// (`NSInsertedObjectsKey`, …) are their raw values.
    ///
    /// For example:
    /// ```swift
    /// let inserted = notification.userInfo?[NSManagedObjectContext.NotificationKey.insertedObjects.rawValue]
    /// ```
    public enum NotificationKey: String, Sendable {
        case insertedObjects = "inserted"
        case updatedObjects = "updated"
        case deletedObjects = "deleted"
        case refreshedObjects = "refreshed"
        case invalidatedObjects = "invalidated"
        case invalidatedAllObjects = "invalidatedAll"
        case insertedObjectIDs = "inserted_objectIDs"
        case updatedObjectIDs = "updated_objectIDs"
        case deletedObjectIDs = "deleted_objectIDs"
        case refreshedObjectIDs = "refreshed_objectIDs"
        case invalidatedObjectIDs = "invalidated_objectIDs"
        case queryGeneration = "managedObjectContextQueryGeneration"
    }
}
