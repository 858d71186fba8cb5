/// One `attribute = value` of a batch update.
struct BatchAssignment {
    let attribute: NSAttributeDescription
    let value: Any?
}

/// A store that runs batch requests itself, each in one transaction.
protocol BatchExecuting {
    /// Sets attributes of every row `fetch` matches; returns the rows changed.
    func batchUpdate(_ fetch: StoreFetch, assignments: [BatchAssignment]) throws -> [NSManagedObjectID]
    /// Deletes rows, cascading and nullifying as the model's rules say.
    func batchDelete(_ ids: [NSManagedObjectID]) throws
    /// Inserts complete rows (already keyed).
    func batchInsert(_ rows: [RowSnapshot]) throws
}
