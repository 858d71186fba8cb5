/// What `NSManagedObjectContext.execute(_:)` returns for each kind of request.
open class NSPersistentStoreResult: NSObject {}

/// The result of a batch update, in the form `resultType` asked for.
public enum NSBatchUpdateRequestResultType: UInt, Sendable {
    case statusOnlyResultType = 0
    case updatedObjectIDsResultType = 1
    case updatedObjectsCountResultType = 2
}

public enum NSBatchDeleteRequestResultType: UInt, Sendable {
    case resultTypeStatusOnly = 0
    case resultTypeObjectIDs = 1
    case resultTypeCount = 2
}

public enum NSBatchInsertRequestResultType: UInt, Sendable {
    case statusOnly = 0
    case objectIDs = 1
    case count = 2
}

/// `result` is a `Bool` (status), `[NSManagedObjectID]` or an `Int` count.
open class NSBatchUpdateResult: NSPersistentStoreResult {
    public let result: Any?
    public let resultType: NSBatchUpdateRequestResultType
    init(result: Any?, resultType: NSBatchUpdateRequestResultType) {
        self.result = result
        self.resultType = resultType
    }
}

open class NSBatchDeleteResult: NSPersistentStoreResult {
    public let result: Any?
    public let resultType: NSBatchDeleteRequestResultType
    init(result: Any?, resultType: NSBatchDeleteRequestResultType) {
        self.result = result
        self.resultType = resultType
    }
}

open class NSBatchInsertResult: NSPersistentStoreResult {
    public let result: Any?
    public let resultType: NSBatchInsertRequestResultType
    init(result: Any?, resultType: NSBatchInsertRequestResultType) {
        self.result = result
        self.resultType = resultType
    }
}
