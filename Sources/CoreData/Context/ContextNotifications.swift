// Apple's context notification names and userInfo keys.

/// `userInfo` key: the objects inserted (a `Set<NSManagedObject>`).
public let NSInsertedObjectsKey = NSManagedObjectContext.NotificationKey.insertedObjects.rawValue
/// `userInfo` key: the objects updated.
public let NSUpdatedObjectsKey = NSManagedObjectContext.NotificationKey.updatedObjects.rawValue
/// `userInfo` key: the objects deleted.
public let NSDeletedObjectsKey = NSManagedObjectContext.NotificationKey.deletedObjects.rawValue
/// `userInfo` key: the objects refreshed from the store or a merge.
public let NSRefreshedObjectsKey = NSManagedObjectContext.NotificationKey.refreshedObjects.rawValue
/// `userInfo` key: objects no longer valid (their rows are gone); merges treat them as deleted.
public let NSInvalidatedObjectsKey = NSManagedObjectContext.NotificationKey.invalidatedObjects.rawValue
/// `userInfo` key: present when every object was invalidated (a reset).
public let NSInvalidatedAllObjectsKey = NSManagedObjectContext.NotificationKey.invalidatedAllObjects.rawValue
/// `userInfo` key of the did-save notifications: the query generation a context pinned to
/// generations reads after its save (an `NSQueryGenerationToken`).
public let NSManagedObjectContextQueryGenerationKey = NSManagedObjectContext.NotificationKey.queryGeneration.rawValue
/// `userInfo` key: the IDs of the objects inserted (a `Set<NSManagedObjectID>`).
public let NSInsertedObjectIDsKey = NSManagedObjectContext.NotificationKey.insertedObjectIDs.rawValue
/// `userInfo` key: the IDs of the objects updated.
public let NSUpdatedObjectIDsKey = NSManagedObjectContext.NotificationKey.updatedObjectIDs.rawValue
/// `userInfo` key: the IDs of the objects deleted.
public let NSDeletedObjectIDsKey = NSManagedObjectContext.NotificationKey.deletedObjectIDs.rawValue
/// `userInfo` key: the IDs of the objects refreshed.
public let NSRefreshedObjectIDsKey = NSManagedObjectContext.NotificationKey.refreshedObjectIDs.rawValue
/// `userInfo` key: the IDs of the objects invalidated.
public let NSInvalidatedObjectIDsKey = NSManagedObjectContext.NotificationKey.invalidatedObjectIDs.rawValue

/// The names of the notifications a context posts, as Apple spells them.
extension Notification.Name {
    /// Posted at `processPendingChanges()` with the objects inserted, updated, deleted or
    /// refreshed since the last one.
    public static let NSManagedObjectContextObjectsDidChange = Notification.Name("NSObjectsChangedInManagingContextNotification")
    /// Posted on the context's queue before a save writes anything.
    public static let NSManagedObjectContextWillSave = Notification.Name("NSManagingContextWillSaveChangesNotification")
    /// Posted after a save, with the saved objects; pass it to `mergeChanges(fromContextDidSave:)`.
    public static let NSManagedObjectContextDidSave = Notification.Name("NSManagingContextDidSaveChangesNotification")
    /// The save notification with object IDs only, safe to hand to any queue.
    public static let NSManagedObjectContextDidSaveObjectIDs = Notification.Name("NSManagedObjectContextDidSaveObjectIDsNotification")
    /// Posted by a context after it merged another save (`mergeChanges(fromContextDidSave:)`,
    /// `mergeChanges(fromRemoteContextSave:into:)` or an automatic merge), with the IDs merged
    /// under `NSInsertedObjectIDsKey`, `NSUpdatedObjectIDsKey` and `NSDeletedObjectIDsKey`.
    public static let NSManagedObjectContextDidMergeChangesObjectIDs = Notification.Name("NSManagedObjectContextDidMergeChangesObjectIDsNotification")
}

extension NSManagedObjectContext {
    /// The objects-did-change notification under its newer Swift name.
    public static let didChangeObjectsNotification = Notification.Name.NSManagedObjectContextObjectsDidChange
    /// The will-save notification under its newer Swift name.
    public static let willSaveObjectsNotification = Notification.Name.NSManagedObjectContextWillSave
    /// The did-save notification under its newer Swift name.
    public static let didSaveObjectsNotification = Notification.Name.NSManagedObjectContextDidSave
    /// The did-save-object-IDs notification under its newer Swift name.
    public static let didSaveObjectIDsNotification = Notification.Name.NSManagedObjectContextDidSaveObjectIDs
    /// The did-merge-object-IDs notification under its newer Swift name.
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
        /// The inserted objects.
        case insertedObjects = "inserted"
        /// The updated objects.
        case updatedObjects = "updated"
        /// The deleted objects.
        case deletedObjects = "deleted"
        /// The objects refreshed from the store or a merge.
        case refreshedObjects = "refreshed"
        /// Objects whose rows are gone.
        case invalidatedObjects = "invalidated"
        /// Present when every object was invalidated.
        case invalidatedAllObjects = "invalidatedAll"
        /// The IDs of the inserted objects.
        case insertedObjectIDs = "inserted_objectIDs"
        /// The IDs of the updated objects.
        case updatedObjectIDs = "updated_objectIDs"
        /// The IDs of the deleted objects.
        case deletedObjectIDs = "deleted_objectIDs"
        /// The IDs of the refreshed objects.
        case refreshedObjectIDs = "refreshed_objectIDs"
        /// The IDs of the invalidated objects.
        case invalidatedObjectIDs = "invalidated_objectIDs"
        /// The query generation a pinned context reads after its save, in did-save notifications.
        case queryGeneration = "managedObjectContextQueryGeneration"
    }
}
