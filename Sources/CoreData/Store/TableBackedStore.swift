/// A store whose rows live in an `InMemoryTable`: the in-memory store, and atomic stores, which
/// index their cache nodes there. Every read is answered from the table under the store's lock.
protocol TableBackedStore: ContextFreeStore {
    var table: InMemoryTable { get }
}

extension TableBackedStore {
    func fetchRows(_ fetch: StoreFetch) throws -> [RowSnapshot] {
        try locked { try table.fetchRows(fetch) }
    }

    func fetchObjectIDList(_ fetch: StoreFetch) throws -> ObjectIDList {
        ObjectIDList(try fetchRows(fetch).map(\.objectID))
    }

    func count(_ fetch: StoreFetch) throws -> Int {
        try fetchRows(fetch).count
    }

    func rows(for ids: [NSManagedObjectID]) throws -> [NSManagedObjectID: RowSnapshot] {
        locked { table.rows(for: ids) }
    }

    func relatedObjectIDs(_ relationship: NSRelationshipDescription, of source: NSManagedObjectID) throws -> [NSManagedObjectID] {
        locked { table.relatedObjectIDs(relationship, of: source) }
    }

    func fetchDictionaries(_ request: DictionaryFetch) throws -> [NSDictionary] {
        try locked { try table.fetchDictionaries(request) }
    }
}
