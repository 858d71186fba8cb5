/// A store that also writes without consulting the saving context and runs batch requests
/// row by row: the SQLite and in-memory stores.
protocol BuiltInStore: ContextFreeStore, BatchExecuting {
    func apply(_ changes: StoreChanges) throws
}

extension BuiltInStore {
    func apply(_ changes: StoreChanges, from context: NSManagedObjectContext) throws {
        try apply(changes)
    }
}
