/// The kinds of request a context can execute.
public enum NSPersistentStoreRequestType: UInt, Sendable {
    /// An `NSFetchRequest`.
    case fetchRequestType = 1
    /// An `NSSaveChangesRequest`, as an incremental store receives saves.
    case saveRequestType = 2
    /// An `NSBatchInsertRequest`.
    case batchInsertRequestType = 5
    /// An `NSBatchUpdateRequest`.
    case batchUpdateRequestType = 6
    /// An `NSBatchDeleteRequest`.
    case batchDeleteRequestType = 7
}

/// The base of every request executed against persistent stores.
open class NSPersistentStoreRequest: NSObject {
    /// The stores to search; nil or empty means all of the coordinator's stores.
    public var affectedStores: [NSPersistentStore]?
    /// Which kind of request this is; each subclass answers its own.
    open var requestType: NSPersistentStoreRequestType { .fetchRequestType }
}
