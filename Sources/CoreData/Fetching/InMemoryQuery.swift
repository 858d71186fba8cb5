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

    /// The page `offset` and `limit` (0 for none) select, as SQL's LIMIT and OFFSET do.
    static func page<T>(_ results: [T], offset: Int, limit: Int) -> [T] {
        let start = min(offset, results.count)
        let end = limit > 0 ? min(start + limit, results.count) : results.count
        return Array(results[start..<end])
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
