/// The kinds of request a context can execute.
public enum NSPersistentStoreRequestType: UInt, Sendable {
    case fetchRequestType = 1
    case saveRequestType = 2
    case batchInsertRequestType = 5
    case batchUpdateRequestType = 6
    case batchDeleteRequestType = 7
}

/// The base of every request executed against persistent stores.
open class NSPersistentStoreRequest: NSObject {
    /// The stores to search; nil or empty means all of the coordinator's stores.
    public var affectedStores: [NSPersistentStore]?
    /// Which kind of request this is; each subclass answers its own.
    open var requestType: NSPersistentStoreRequestType { .fetchRequestType }
}
