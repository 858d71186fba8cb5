/// Judges and orders objects in memory, for unsaved changes, the in-memory store and the
/// controller. (Interim: full predicate and sort support arrives with the Query room.)
enum InMemoryQuery {
    static func validate(_ fetch: StoreFetch) throws {}

    static func matches(_ object: AnyObject, _ predicate: NSPredicate?) throws -> Bool {
        guard let predicate else { return true }
        return predicate.evaluate(with: object)
    }

    static func sort(_ objects: inout [NSManagedObject], by descriptors: [NSSortDescriptor]) throws {
        try sort(&objects, by: descriptors, tieBreak: { $0.objectID < $1.objectID })
    }

    static func sort<T>(_ objects: inout [T], by descriptors: [NSSortDescriptor], tieBreak: (T, T) -> Bool) throws {
        objects.sort(by: tieBreak)
    }
}
