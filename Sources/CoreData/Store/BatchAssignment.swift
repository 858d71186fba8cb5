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

/// What a batch update changed.
struct BatchUpdateOutcome {
    let count: Int
    /// Empty unless the caller asked for them.
    let objectIDs: [NSManagedObjectID]
}
