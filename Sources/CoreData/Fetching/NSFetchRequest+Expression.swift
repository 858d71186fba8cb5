/// What `FETCH(request, context, countOnly)` runs: a fetch request of any result type, so the
/// expression evaluator needs no knowledge of the request's generic parameter.
protocol ExpressionFetchRequest {
    /// The request's results in `context`, or their number as an `NSNumber` when `countOnly`.
    func expressionResults(in context: NSManagedObjectContext, countOnly: Bool) throws -> Any
}

extension NSFetchRequest: ExpressionFetchRequest {
    func expressionResults(in context: NSManagedObjectContext, countOnly: Bool) throws -> Any {
        countOnly ? NSNumber(value: try context.count(for: self)) : try context.fetch(self) as [Any]
    }
}
