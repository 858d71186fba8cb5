/// A store that can keep one version of its data for contexts pinned to a query generation
/// (`NSManagedObjectContext.setQueryGenerationFrom(_:)`): the SQLite and PostgreSQL stores.
protocol QueryGenerationStore: NSPersistentStore {
    /// The connection a generation holds and the store's reads run on.
    associatedtype Session
    /// A new generation: the data as committed now, kept while the generation lives.
    func makeQueryGeneration() throws -> QueryGeneration
}

extension QueryGenerationStore {
    /// The generation the calling context reads through, when it is one of this store's; its
    /// reads go there instead of to the store's own connections.
    var pinnedGeneration: QueryGeneration? {
        guard let generation = QueryGeneration.pinned, generation.store === self else { return nil }
        return generation
    }
}
