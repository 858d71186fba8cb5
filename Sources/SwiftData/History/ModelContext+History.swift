/// Reading and trimming the stores' persistent history as SwiftData transactions.
extension ModelContext {
    /// The transactions `descriptor` selects, oldest first unless it sorts otherwise.
    public func fetchHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws -> [DefaultHistoryTransaction] {
        let result = try managedObjectContext.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?))
        let transactions = ((result as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction] ?? []).map(transaction)
        var selected = try transactions.filter { try descriptor.predicate?.evaluate($0) ?? true }
        if !descriptor.sortBy.isEmpty { selected.sort(using: descriptor.sortBy) }
        if let limit = descriptor.fetchLimit { selected = Array(selected.prefix(limit)) }
        return selected
    }

    /// Deletes the history of the transactions `descriptor` selects, and all before them.
    public func deleteHistory(_ descriptor: HistoryDescriptor<DefaultHistoryTransaction>) throws {
        guard let last = try fetchHistory(descriptor).max(by: { $0.token < $1.token }) else { return }
        let fetched = try managedObjectContext.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: nil as NSPersistentHistoryToken?))
        let transactions = (fetched as? NSPersistentHistoryResult)?.result as? [NSPersistentHistoryTransaction] ?? []
        // Core Data deletes history before a transaction, so name the one after the last.
        if let next = transactions.first(where: { $0.token > last.token.token }) {
            _ = try managedObjectContext.execute(NSPersistentHistoryChangeRequest.deleteHistory(before: next))
        } else {
            _ = try managedObjectContext.execute(NSPersistentHistoryChangeRequest.deleteHistory(before: Date.distantFuture))
        }
    }

    private func transaction(_ transaction: NSPersistentHistoryTransaction) -> DefaultHistoryTransaction {
        DefaultHistoryTransaction(
            changes: (transaction.changes ?? []).compactMap { change(from: $0, in: transaction.transactionNumber) },
            token: DefaultHistoryToken(transaction.token),
            transactionIdentifier: transaction.transactionNumber,
            author: transaction.author,
            bundleIdentifier: transaction.bundleID,
            processIdentifier: transaction.processID,
            storeIdentifier: transaction.storeID,
            timestamp: transaction.timestamp
        )
    }

    private func change(from change: NSPersistentHistoryChange, in transaction: Int64) -> HistoryChange? {
        guard let type = container.schema.modelTypes[change.changedObjectID.entity.name ?? ""] else { return nil }
        return Self.change(from: change, in: transaction, model: type)
    }

    private static func change<Model: PersistentModel>(from change: NSPersistentHistoryChange, in transaction: Int64, model: Model.Type) -> HistoryChange {
        let identifier = PersistentIdentifier(change.changedObjectID)
        switch change.changeType {
        case .insert:
            return .insert(DefaultHistoryInsert<Model>(changedPersistentIdentifier: identifier, changeIdentifier: change.changeID, transactionIdentifier: transaction))
        case .update:
            let names = Set((change.updatedProperties ?? []).compactMap(\.name))
            let keyPaths = Model.schemaMetadata.filter { names.contains($0.name) }.compactMap { $0.keypath as? PartialKeyPath<Model> }
            return .update(DefaultHistoryUpdate<Model>(changedPersistentIdentifier: identifier, changeIdentifier: change.changeID, transactionIdentifier: transaction, updatedAttributes: keyPaths))
        case .delete:
            var values: [String: Any] = [:]
            for (key, value) in change.tombstone ?? [:] { if let key = key as? String { values[key] = value } }
            return .delete(DefaultHistoryDelete<Model>(changedPersistentIdentifier: identifier, changeIdentifier: change.changeID, transactionIdentifier: transaction, tombstone: HistoryTombstone(values: values)))
        }
    }
}
