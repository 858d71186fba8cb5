/// What a store declares it can do: each capability is the store itself when it conforms to
/// the capability's protocol, and nil otherwise. The constrained extensions below are chosen
/// where a store declares its conformances, at compile time.
extension RowStore {
    var rowLevelBatches: (any BuiltInStore)? { nil }
    var historyTracking: (any HistoryTracking)? { nil }
    var queryGenerations: (any QueryGenerationStore)? { nil }
    func metadataWasSet(_ metadata: [String: Any]) {}
    func writePendingMetadata() throws {}

    /// A store that declares no way to run batch requests refuses them. (A context runs a
    /// built-in store's through `rowLevelBatches` and never calls this.)
    func executeBatch(_ request: NSPersistentStoreRequest, for context: NSManagedObjectContext) throws -> NSPersistentStoreResult {
        throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "\(Swift.type(of: self)) does not run \(Swift.type(of: request))")
    }
}

extension RowStore where Self: BuiltInStore {
    var rowLevelBatches: (any BuiltInStore)? { self }
}

extension RowStore where Self: HistoryTracking {
    var historyTracking: (any HistoryTracking)? { self }
}

extension RowStore where Self: QueryGenerationStore {
    var queryGenerations: (any QueryGenerationStore)? { self }
}

extension SQLTableStore {
    func metadataWasSet(_ metadata: [String: Any]) {
        pendingMetadata = metadata
    }

    func writePendingMetadata() throws {
        try locked {
            guard let pendingMetadata else { return }
            try writeTransaction { session in try SQLModelCache.write(metadata: pendingMetadata, on: session) }
            self.pendingMetadata = nil
        }
    }
}
