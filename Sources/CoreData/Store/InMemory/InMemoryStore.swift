/// A store that keeps rows in memory only: fast, isolated, gone when the process ends. Useful
/// for tests and caches; queries are judged by the in-memory evaluator.
final class InMemoryStore: NSPersistentStore, BuiltInStore, TableBackedStore, @unchecked Sendable {
    let table = InMemoryTable()
    /// The last primary key handed out per inheritance hierarchy.
    private var lastKeys: [String: Int64] = [:]

    func load(model: NSManagedObjectModel) throws {
        identifier = UUID().uuidString
        metadata = [NSStoreUUIDKey: identifier!, NSStoreTypeKey: NSInMemoryStoreType,
                    NSStoreModelVersionHashesKey: model.entityVersionHashesByName]
    }

    func close() {}

    func allocatePrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64] {
        locked {
            let hierarchy = entity.rootEntity.name ?? ""
            let current = lastKeys[hierarchy, default: 0]
            lastKeys[hierarchy] = current + Int64(count)
            return Array((current + 1)...(current + Int64(count)))
        }
    }

    func apply(_ changes: StoreChanges) throws {
        try locked {
            if let conflict = table.versionConflict(with: changes) { throw conflict }
            table.apply(changes)
        }
    }
}
