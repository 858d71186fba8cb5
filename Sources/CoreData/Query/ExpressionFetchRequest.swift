/// What `FETCH(request, context, countOnly)` runs: a fetch request of any result type, so the
/// expression evaluator needs no knowledge of the request's generic parameter.
///
/// Declared here, below the contexts, and handed the context untyped: the evaluator in this
/// layer passes FETCH's second argument through without naming the context type, and the
/// request (in the Fetching layer) checks that it is one.
protocol ExpressionFetchRequest {
    /// The request's results in `context`, or their number as an `NSNumber` when `countOnly`.
    /// Throws `PredicateError.semantic` when `context` is not a managed object context.
    func expressionResults(in context: Any?, countOnly: Bool) throws -> Any
}
