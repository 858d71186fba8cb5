/// Dictionary results (`.dictionaryResultType`): computed by the store from its saved rows —
/// in SQL for the SQLite store — never by loading objects.
///
/// As on Apple platforms, they ignore the context's unsaved changes (inserts, edits and
/// deletes alike, and a parent context's too), whatever `includesPendingChanges` says: save
/// first to include them.
extension NSManagedObjectContext {
    func dictionaryResults<T>(for request: NSFetchRequest<T>, fetch: StoreFetch) throws -> [NSDictionary] {
        let dictionaryFetch = try DictionaryFetch(request: request, fetch: fetch)
        guard let coordinator = persistentStoreCoordinator else { throw noCoordinator() }
        return try readingQueryGeneration { try coordinator.store(for: fetch.entity).fetchDictionaries(dictionaryFetch, for: self) }
    }
}
