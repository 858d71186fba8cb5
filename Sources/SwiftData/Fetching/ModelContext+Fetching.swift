/// Fetching models: whole, counted, as identifiers, in batches.
extension ModelContext {
    /// The models `descriptor` matches, in its order.
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        let request: NSFetchRequest<NSManagedObject> = try descriptor.fetchRequest()
        return models(for: try managedObjectContext.fetch(request), as: T.self)
    }

    /// The models `descriptor` matches, filled `batchSize` at a time as they are read.
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, batchSize: Int) throws -> FetchResultsCollection<T> {
        FetchResultsCollection(identifiers: try fetchObjectIDs(descriptor), batchSize: batchSize, context: self)
    }

    /// How many models `descriptor` matches, counted in SQL.
    public func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int {
        let request: NSFetchRequest<NSManagedObject> = try descriptor.fetchRequest()
        return try managedObjectContext.count(for: request)
    }

    /// The identifiers of the models `descriptor` matches, without materialising them.
    public func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [PersistentIdentifier] {
        try fetchObjectIDs(descriptor).map(PersistentIdentifier.init)
    }

    /// Calls `block` with each matching model, fetching `batchSize` at a time.
    public func enumerate<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, batchSize: Int = 5000, allowEscapingMutations: Bool = false,
        _ block: (T) throws -> Void
    ) throws {
        for model in try fetch(descriptor, batchSize: batchSize) { try block(model) }
    }

    private func fetchObjectIDs<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [NSManagedObjectID] {
        let request: NSFetchRequest<NSManagedObjectID> = try descriptor.fetchRequest(resultType: .managedObjectIDResultType)
        return try managedObjectContext.fetch(request)
    }
}
