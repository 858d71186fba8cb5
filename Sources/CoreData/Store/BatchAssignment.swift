/// One `attribute = value` of a batch update: a constant, or an expression computed from each
/// row (`tips + 1`), which the SQLite store compiles into the UPDATE and the in-memory store
/// evaluates per row.
struct BatchAssignment {
    let attribute: NSAttributeDescription
    /// The new value when it is the same for every row.
    let value: Any?
    /// The new value computed from the row, when it is not a constant.
    var expression: ExpressionNode? = nil
}

/// A store that runs batch requests itself, each in one transaction.
protocol BatchExecuting {
    /// Sets attributes of every row `fetch` matches; returns how many rows changed and, only
    /// when asked (reading them costs a pass over the rows), which.
    func batchUpdate(_ fetch: StoreFetch, assignments: [BatchAssignment], returningObjectIDs: Bool) throws -> BatchUpdateOutcome
    /// Deletes rows, cascading and nullifying as the model's rules say.
    func batchDelete(_ ids: [NSManagedObjectID]) throws
    /// Inserts complete rows (already keyed).
    func batchInsert(_ rows: [RowSnapshot]) throws
}

/// What a batch update changed.
struct BatchUpdateOutcome {
    let count: Int
    /// Empty unless the caller asked for them.
    let objectIDs: [NSManagedObjectID]
}
