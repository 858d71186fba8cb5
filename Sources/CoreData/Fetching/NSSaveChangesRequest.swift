/// A save, as an `NSIncrementalStore` subclass receives it in `execute(_:with:)`: the objects
/// the saving context inserted, updated and deleted, with their values as they will be stored.
///
/// Objects whose to-many membership changed count as updated. Object IDs are already permanent
/// (the store's `obtainPermanentIDs(for:)` ran first).
open class NSSaveChangesRequest: NSPersistentStoreRequest {
    public let insertedObjects: Set<NSManagedObject>?
    public let updatedObjects: Set<NSManagedObject>?
    public let deletedObjects: Set<NSManagedObject>?
    /// Objects whose version must not have moved on although they did not change; always nil
    /// here, as the coordinator checks versions itself for the built-in stores only.
    public let lockedObjects: Set<NSManagedObject>?

    public init(inserted insertedObjects: Set<NSManagedObject>?, updated updatedObjects: Set<NSManagedObject>?,
                deleted deletedObjects: Set<NSManagedObject>?, locked lockedObjects: Set<NSManagedObject>?) {
        self.insertedObjects = insertedObjects
        self.updatedObjects = updatedObjects
        self.deletedObjects = deletedObjects
        self.lockedObjects = lockedObjects
    }

    open override var requestType: NSPersistentStoreRequestType { .saveRequestType }
}
