/// Dictionary fetches over the in-memory rows: the rows matching the predicate (sorted, unless
/// the sort is by result names) go through the same Swift aggregation the SQLite store uses
/// for median, mode and stddev.
extension InMemoryTable {
    func fetchDictionaries(_ request: DictionaryFetch) throws -> [NSDictionary] {
        var rows = request.fetch
        rows.limit = 0
        rows.offset = 0
        if request.sortsByResultNames { rows.sortDescriptors = [] }
        let views = try fetchRows(rows).map { InMemoryRowView(row: $0, table: self) }
        return try DictionaryAggregation<InMemoryRowView>(request: request) { view, node in
            ConstantValue(any: try PredicateEvaluator.evaluate(node, view))
        }.results(views)
    }
}
