/// A store that runs batch requests row by row, each in one transaction: the built-in stores.
/// The context resolves a request against the model (names to attributes, values checked and
/// normalised) and hands the store the resolved parts.
protocol BatchExecuting: PrimaryKeyAllocating {
    /// Sets attributes of every row `fetch` matches; returns how many rows changed and, only
    /// when asked (reading them costs a pass over the rows), which. `origin` names the
    /// requesting context in persistent history.
    func batchUpdate(_ fetch: StoreFetch, assignments: [BatchAssignment], returningObjectIDs: Bool, origin: TransactionOrigin) throws -> BatchUpdateOutcome
    /// Deletes rows, cascading and nullifying as the model's rules say.
    func batchDelete(_ ids: [NSManagedObjectID], origin: TransactionOrigin) throws
    /// Deletes every row `fetch` matches in one statement and returns how many went, when no
    /// delete rule, inbound reference, join table or persistent history needs the rows' keys
    /// first; nil otherwise (the caller then reads the keys and calls `batchDelete(_:origin:)`).
    func batchDeleteAtOnce(_ fetch: StoreFetch) throws -> Int?
}
