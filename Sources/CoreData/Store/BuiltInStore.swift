/// A store that answers without consulting the requesting context and runs batch requests row
/// by row: the SQLite and in-memory stores.
protocol BuiltInStore: RowStore, BatchExecuting {
    func fetchRows(_ fetch: StoreFetch) throws -> [RowSnapshot]
    func fetchObjectIDList(_ fetch: StoreFetch) throws -> ObjectIDList
    func count(_ fetch: StoreFetch) throws -> Int
    func rows(for ids: [NSManagedObjectID]) throws -> [NSManagedObjectID: RowSnapshot]
    func relatedObjectIDs(_ relationship: NSRelationshipDescription, of source: NSManagedObjectID) throws -> [NSManagedObjectID]
    func apply(_ changes: StoreChanges) throws
    func fetchDictionaries(_ request: DictionaryFetch) throws -> [NSDictionary]
}

extension BuiltInStore {
    func fetchRows(_ fetch: StoreFetch, for context: NSManagedObjectContext) throws -> [RowSnapshot] {
        try fetchRows(fetch)
    }

    func fetchObjectIDList(_ fetch: StoreFetch, for context: NSManagedObjectContext) throws -> ObjectIDList {
        try fetchObjectIDList(fetch)
    }

    func count(_ fetch: StoreFetch, for context: NSManagedObjectContext) throws -> Int {
        try count(fetch)
    }

    func rows(for ids: [NSManagedObjectID], for context: NSManagedObjectContext) throws -> [NSManagedObjectID: RowSnapshot] {
        try rows(for: ids)
    }

    func relatedObjectIDs(_ relationship: NSRelationshipDescription, of source: NSManagedObjectID,
                          for context: NSManagedObjectContext) throws -> [NSManagedObjectID] {
        try relatedObjectIDs(relationship, of: source)
    }

    func apply(_ changes: StoreChanges, from context: NSManagedObjectContext) throws {
        try apply(changes)
    }

    func fetchDictionaries(_ request: DictionaryFetch, for context: NSManagedObjectContext) throws -> [NSDictionary] {
        try fetchDictionaries(request)
    }
}
