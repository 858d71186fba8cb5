/// A save, as an `NSIncrementalStore` subclass receives it in `execute(_:with:)`: the objects
/// the saving context inserted, updated and deleted, with their values as they will be stored.
///
/// Objects whose to-many membership changed count as updated. Object IDs are already permanent
/// (the store's `obtainPermanentIDs(for:)` ran first).
open class NSSaveChangesRequest: NSPersistentStoreRequest {
    /// Objects new in the store.
    public let insertedObjects: Set<NSManagedObject>?
    /// Objects whose attributes or relationships changed.
    public let updatedObjects: Set<NSManagedObject>?
    /// Objects to remove from the store.
    public let deletedObjects: Set<NSManagedObject>?
    /// Objects whose version must not have moved on although they did not change; always nil
    /// here, as the coordinator checks versions itself for the built-in stores only.
    public let lockedObjects: Set<NSManagedObject>?

    /// A save of these objects; the coordinator builds it, a store only reads it.
    public init(inserted insertedObjects: Set<NSManagedObject>?, updated updatedObjects: Set<NSManagedObject>?,
                deleted deletedObjects: Set<NSManagedObject>?, locked lockedObjects: Set<NSManagedObject>?) {
        self.insertedObjects = insertedObjects
        self.updatedObjects = updatedObjects
        self.deletedObjects = deletedObjects
        self.lockedObjects = lockedObjects
    }

    /// Always `.saveRequestType`.
    open override var requestType: NSPersistentStoreRequestType { .saveRequestType }
}
