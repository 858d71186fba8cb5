/// What the coordinator and its contexts ask of a store: rows in, rows out.
///
/// Every store a coordinator holds conforms, so a context never asks a store whether it can do
/// something: the built-in stores answer in SQL or in memory, and `NSIncrementalStore` answers
/// through the public API its subclasses implement. The requesting context travels with each
/// call because Apple's incremental-store API hands it to the subclass.
protocol RowStore: NSPersistentStore {
    /// Opens or creates the store for `model`; throws without touching an incompatible file.
    func load(model: NSManagedObjectModel) throws
    /// The rows `fetch` matches, in its order.
    func fetchRows(_ fetch: StoreFetch, for context: NSManagedObjectContext) throws -> [RowSnapshot]
    /// The IDs `fetch` matches, compactly: a store that can read keys makes no
    /// `NSManagedObjectID` until one is read.
    func fetchObjectIDList(_ fetch: StoreFetch, for context: NSManagedObjectContext) throws -> ObjectIDList
    func count(_ fetch: StoreFetch, for context: NSManagedObjectContext) throws -> Int
    /// The rows for `ids`, missing ones left out (deleted elsewhere).
    func rows(for ids: [NSManagedObjectID], for context: NSManagedObjectContext) throws -> [NSManagedObjectID: RowSnapshot]
    /// The members of `source`'s to-many `relationship`, in order for ordered relationships.
    func relatedObjectIDs(_ relationship: NSRelationshipDescription, of source: NSManagedObjectID,
                          for context: NSManagedObjectContext) throws -> [NSManagedObjectID]
    /// Permanent IDs for new objects, in the same order.
    func permanentIDs(for objects: [NSManagedObject]) throws -> [NSManagedObjectID]
    /// Applies a save in one transaction, throwing `StoreVersionConflict` if a row moved on.
    func apply(_ changes: StoreChanges, from context: NSManagedObjectContext) throws
    /// Dictionary results, computed from saved rows only.
    func fetchDictionaries(_ request: DictionaryFetch, for context: NSManagedObjectContext) throws -> [NSDictionary]
    /// Runs a batch update, delete or insert request.
    func executeBatch(_ request: NSPersistentStoreRequest, for context: NSManagedObjectContext) throws -> NSPersistentStoreResult
    /// Releases files and connections.
    func close()

    // Capabilities beyond rows in and rows out, declared by the protocols a store conforms to
    // (defaults in `RowStore+Capabilities`), so that no caller discovers them with a cast.

    /// Batch requests the store runs itself, row by row in one transaction (a `BuiltInStore`);
    /// nil when `executeBatch(_:for:)` answers them (an incremental store's subclass).
    var rowLevelBatches: (any BuiltInStore)? { get }
    /// The store's persistent history, when it can record one (`HistoryTracking`).
    var historyTracking: (any HistoryTracking)? { get }
    /// Query generations, when the store can pin one (`QueryGenerationStore`).
    var queryGenerations: (any QueryGenerationStore)? { get }
    /// Hears metadata set through `NSPersistentStoreCoordinator.setMetadata(_:for:)`, under the
    /// store's lock; a SQL store writes it with the next save.
    func metadataWasSet(_ metadata: [String: Any])
    /// Writes metadata heard through `metadataWasSet(_:)` that no save has written yet: what a
    /// context's save with no object changes still writes, as Apple's does.
    func writePendingMetadata() throws
}

extension RowStore {
    func fetchObjectIDs(_ fetch: StoreFetch, for context: NSManagedObjectContext) throws -> [NSManagedObjectID] {
        Array(try fetchObjectIDList(fetch, for: context))
    }
}
