/// Judges and orders objects in memory, exactly as the SQL compiler does in the store: for a
/// context's unsaved changes, the in-memory store, and the fetched results controller.
enum InMemoryQuery {
    /// Checks that the request's predicate and sort descriptors are well-formed, so a bad
    /// request throws before anything is read.
    static func validate(_ fetch: StoreFetch) throws {
        _ = try fetch.predicate?.parsedTree()
        _ = try SortComparison(fetch.sortDescriptors)
    }

    /// The members of `candidates` that satisfy `predicate`, parsed once for all of them.
    static func filter<T>(_ candidates: [T], by predicate: NSPredicate?) throws -> [T] {
        guard let predicate else { return candidates }
        let evaluator = PredicateEvaluator(try predicate.parsedTree())
        return try candidates.filter { try evaluator.evaluate($0) }
    }

    /// The positions `offset` and `limit` (0 for none) select from `count` results, as SQL's
    /// LIMIT and OFFSET do.
    static func pageRange(count: Int, offset: Int, limit: Int) -> Range<Int> {
        let start = min(offset, count)
        return start..<(limit > 0 ? min(start + limit, count) : count)
    }

    static func page<T>(_ results: [T], offset: Int, limit: Int) -> [T] {
        Array(results[pageRange(count: results.count, offset: offset, limit: limit)])
    }

    static func sort(_ objects: inout [NSManagedObject], by descriptors: [NSSortDescriptor]) throws {
        try sort(&objects, by: descriptors, tieBreak: { $0.objectID < $1.objectID })
    }

    /// Sorts by `descriptors`; objects with equal keys end in `tieBreak` order, which for stored
    /// objects is primary-key order, the order SQLite's `ORDER BY ..., Z_PK` gives.
    static func sort<T>(_ objects: inout [T], by descriptors: [NSSortDescriptor], tieBreak: (T, T) -> Bool) throws {
        objects.sort(by: tieBreak)
        guard !descriptors.isEmpty else { return }
        objects = try SortComparison(descriptors).sorted(objects)
    }
}
