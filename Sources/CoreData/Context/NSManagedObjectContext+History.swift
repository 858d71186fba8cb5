/// Executing `NSPersistentHistoryChangeRequest`: the stores read or delete their history; the
/// context filters it with the request's fetch request and shapes the result.
extension NSManagedObjectContext {
    func executeHistoryRequest(_ request: NSPersistentHistoryChangeRequest, coordinator: NSPersistentStoreCoordinator) throws -> NSPersistentHistoryResult {
        let stores = try (request.affectedStores.flatMap { $0.isEmpty ? nil : $0 } ?? coordinator.persistentStores).map { try Self.historyStore($0, coordinator) }
        if request.deletes {
            var deleted = 0
            for store in stores {
                guard let boundary = request.boundary(in: store.identifier) else { continue }
                deleted += try store.deleteTransactions(before: boundary)
            }
            return NSPersistentHistoryResult(result: request.resultType == .count ? deleted : true, resultType: request.resultType)
        }
        var transactions: [NSPersistentHistoryTransaction] = []
        for store in stores {
            guard let boundary = request.boundary(in: store.identifier) else { continue }
            transactions += try store.transactions(after: boundary)
        }
        if stores.count > 1 {
            transactions.sort { ($0.timestamp, $0.transactionNumber) < ($1.timestamp, $1.transactionNumber) }
        }
        if let fetchRequest = request.fetchRequest { transactions = try Self.filter(transactions, with: fetchRequest) }
        let changes = transactions.flatMap { $0.changes ?? [] }
        switch request.resultType {
        case .statusOnly: return NSPersistentHistoryResult(result: true, resultType: .statusOnly)
        case .objectIDs: return NSPersistentHistoryResult(result: changes.map(\.changedObjectID), resultType: .objectIDs)
        case .count: return NSPersistentHistoryResult(result: transactions.count, resultType: .count)
        case .transactionsOnly:
            for transaction in transactions { transaction.changes = nil }
            return NSPersistentHistoryResult(result: transactions, resultType: .transactionsOnly)
        case .changesOnly: return NSPersistentHistoryResult(result: changes, resultType: .changesOnly, transactions: transactions)
        case .transactionsAndChanges: return NSPersistentHistoryResult(result: transactions, resultType: .transactionsAndChanges)
        }
    }

    private static func historyStore(_ store: NSPersistentStore, _ coordinator: NSPersistentStoreCoordinator) throws -> any HistoryTracking {
        guard let tracking = coordinator.rowStore(store)?.historyTracking, tracking.tracksHistory else {
            throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError,
                "Persistent history is not tracked for the store at \(store.url?.path ?? "(no URL)"); add it with NSPersistentHistoryTrackingKey = true",
                [NSAffectedStoresErrorKey: [store]])
        }
        return tracking
    }

    /// Applies a history fetch request: its predicate to the transactions, or to the changes
    /// (dropping transactions left without any) when it names the change entity; then its
    /// offset and limit, counted in transactions.
    private static func filter(_ transactions: [NSPersistentHistoryTransaction], with fetchRequest: NSFetchRequest<NSFetchRequestResult>) throws -> [NSPersistentHistoryTransaction] {
        var kept = transactions
        if let predicate = fetchRequest.predicate {
            let evaluator = PredicateEvaluator(try predicate.parsedTree())
            if (fetchRequest.entity?.name ?? fetchRequest.entityName) == HistoryEntities.change.name {
                kept = []
                for transaction in transactions {
                    transaction.changes = try transaction.changes?.filter { try evaluator.evaluate($0) }
                    if transaction.changes?.isEmpty == false { kept.append(transaction) }
                }
            } else {
                kept = try transactions.filter { try evaluator.evaluate($0) }
            }
        }
        let window = kept.dropFirst(fetchRequest.fetchOffset)
        return Array(fetchRequest.fetchLimit > 0 ? window.prefix(fetchRequest.fetchLimit) : window)
    }
}
