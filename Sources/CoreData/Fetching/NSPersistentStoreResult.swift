/// What `NSManagedObjectContext.execute(_:)` returns for each kind of request.
open class NSPersistentStoreResult: NSObject {}

/// The result of a batch update, in the form `resultType` asked for.
public enum NSBatchUpdateRequestResultType: UInt, Sendable {
    /// `result` is `true`.
    case statusOnlyResultType = 0
    /// `result` is the updated objects' IDs.
    case updatedObjectIDsResultType = 1
    /// `result` is the number of updated rows.
    case updatedObjectsCountResultType = 2
}

/// The form of a batch delete's result.
public enum NSBatchDeleteRequestResultType: UInt, Sendable {
    /// `result` is `true`.
    case resultTypeStatusOnly = 0
    /// `result` is the deleted objects' IDs.
    case resultTypeObjectIDs = 1
    /// `result` is the number of deleted rows.
    case resultTypeCount = 2
}

/// The form of a batch insert's result.
public enum NSBatchInsertRequestResultType: UInt, Sendable {
    /// `result` is `true`.
    case statusOnly = 0
    /// `result` is the written objects' IDs.
    case objectIDs = 1
    /// `result` is the number of written rows.
    case count = 2
}

/// `result` is a `Bool` (status), `[NSManagedObjectID]` or an `Int` count.
open class NSBatchUpdateResult: NSPersistentStoreResult {
    /// `true`, the updated `[NSManagedObjectID]`, or their count as an `Int`.
    public let result: Any?
    /// The form the request asked for.
    public let resultType: NSBatchUpdateRequestResultType
    init(result: Any?, resultType: NSBatchUpdateRequestResultType) {
        self.result = result
        self.resultType = resultType
    }
}

/// What an `NSBatchDeleteRequest` returns: `result` is `true`, the deleted `[NSManagedObjectID]` or an `Int` count.
open class NSBatchDeleteResult: NSPersistentStoreResult {
    /// `true`, the deleted `[NSManagedObjectID]`, or their count as an `Int`.
    public let result: Any?
    /// The form the request asked for.
    public let resultType: NSBatchDeleteRequestResultType
    init(result: Any?, resultType: NSBatchDeleteRequestResultType) {
        self.result = result
        self.resultType = resultType
    }
}

/// What an `NSBatchInsertRequest` returns: `result` is `true`, the written `[NSManagedObjectID]` or an `Int` count.
open class NSBatchInsertResult: NSPersistentStoreResult {
    /// `true`, the `[NSManagedObjectID]` of inserted rows and of stored rows a constraint merge updated, or their count.
    public let result: Any?
    /// The form the request asked for.
    public let resultType: NSBatchInsertRequestResultType
    init(result: Any?, resultType: NSBatchInsertRequestResultType) {
        self.result = result
        self.resultType = resultType
    }
}
