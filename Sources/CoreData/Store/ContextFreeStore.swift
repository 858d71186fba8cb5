/// A store that answers reads without consulting the requesting context: the SQLite and
/// in-memory stores and atomic stores (an incremental store hands the context to its subclass).
protocol ContextFreeStore: RowStore {
    func fetchRows(_ fetch: StoreFetch) throws -> [RowSnapshot]
    func fetchObjectIDList(_ fetch: StoreFetch) throws -> ObjectIDList
    func count(_ fetch: StoreFetch) throws -> Int
    func rows(for ids: [NSManagedObjectID]) throws -> [NSManagedObjectID: RowSnapshot]
    func relatedObjectIDs(_ relationship: NSRelationshipDescription, of source: NSManagedObjectID) throws -> [NSManagedObjectID]
    func fetchDictionaries(_ request: DictionaryFetch) throws -> [NSDictionary]
}

extension ContextFreeStore {
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

    func fetchDictionaries(_ request: DictionaryFetch, for context: NSManagedObjectContext) throws -> [NSDictionary] {
        try fetchDictionaries(request)
    }
}
