/// Judges and orders objects in memory, exactly as the SQL compiler does in the store: for a
/// context's unsaved changes, the in-memory store, and the fetched results controller.
enum InMemoryQuery {
    /// Checks that the request's predicate and sort descriptors are well-formed, so a bad
    /// request throws before anything is read.
    static func validate(_ fetch: StoreFetch) throws {
        _ = try fetch.predicate?.parsedTree()
        _ = try SortComparison(fetch.sortDescriptors)
    }

    static func matches(_ object: Any, _ predicate: NSPredicate?) throws -> Bool {
        guard let predicate else { return true }
        return try PredicateEvaluator(try predicate.parsedTree()).evaluate(object)
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
