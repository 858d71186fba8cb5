/// A store that runs batch requests row by row, each in one transaction: the built-in stores.
/// The context resolves a request against the model (names to attributes, values checked and
/// normalised) and hands the store the resolved parts.
protocol BatchExecuting: PrimaryKeyAllocating {
    /// Sets attributes of every row `fetch` matches; returns how many rows changed and, only
    /// when asked (reading them costs a pass over the rows), which.
    func batchUpdate(_ fetch: StoreFetch, assignments: [BatchAssignment], returningObjectIDs: Bool) throws -> BatchUpdateOutcome
    /// Deletes rows, cascading and nullifying as the model's rules say.
    func batchDelete(_ ids: [NSManagedObjectID]) throws
    /// Deletes every row `fetch` matches in one statement and returns how many went, when no
    /// delete rule, inbound reference or join table needs the rows' keys first; nil otherwise
    /// (the caller then reads the keys and calls `batchDelete(_:)`).
    func batchDeleteAtOnce(_ fetch: StoreFetch) throws -> Int?
}

extension BuiltInStore {
    func executeBatch(_ request: NSPersistentStoreRequest, for context: NSManagedObjectContext) throws -> NSPersistentStoreResult {
        try context.executeRowLevelBatch(request, on: self)
    }
}
