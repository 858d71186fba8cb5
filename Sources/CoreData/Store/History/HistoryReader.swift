/// Builds `NSPersistentHistoryTransaction`s from the rows of a history fetch: first the
/// transactions (key, timestamp, author, bundle, context, process), then their changes (key,
/// transaction, type, entity, object key, property names, tombstone). The SQLite and PostgreSQL
/// stores run the same two queries and hand each row here.
final class HistoryReader {
    private let store: NSPersistentStore
    private let entities: [Int64: NSEntityDescription]
    private var byNumber: [Int64: NSPersistentHistoryTransaction] = [:]
    private(set) var transactions: [NSPersistentHistoryTransaction] = []

    init(store: NSPersistentStore) {
        self.store = store
        entities = Dictionary((store.persistentStoreCoordinator?.managedObjectModel.entities ?? []).map { (Int64($0.entityNumber), $0) },
                              uniquingKeysWith: { first, _ in first })
    }

    func addTransaction(_ row: some SQLRow) {
        let transaction = NSPersistentHistoryTransaction(
            transactionNumber: row.int64(at: 0), storeID: store.identifier,
            timestamp: Date(timeIntervalSinceReferenceDate: row.double(at: 1)),
            bundleID: row.isNull(at: 3) ? "" : row.text(at: 3), processID: row.isNull(at: 5) ? "" : row.text(at: 5),
            contextName: row.isNull(at: 4) ? nil : row.text(at: 4), author: row.isNull(at: 2) ? nil : row.text(at: 2))
        transaction.changes = []
        byNumber[transaction.transactionNumber] = transaction
        transactions.append(transaction)
    }

    func addChange(_ row: some SQLRow) {
        // A change of an entity the model no longer has cannot name its object.
        guard let transaction = byNumber[row.int64(at: 1)], let entity = entities[row.int64(at: 3)],
              let type = NSPersistentHistoryChangeType(rawValue: Int(row.int64(at: 2))) else { return }
        let properties = row.isNull(at: 5) ? nil : Set(row.text(at: 5).split(separator: ",").compactMap { entity.propertiesByName[String($0)] })
        var tombstone: [AnyHashable: Any]?
        if case .blob(let bytes) = row.value(at: 6) { tombstone = HistoryTombstone.decode(bytes, entity: entity) }
        let change = NSPersistentHistoryChange(
            changeID: row.int64(at: 0), changedObjectID: store.objectID(for: entity, primaryKey: row.int64(at: 4)), changeType: type,
            tombstone: tombstone ?? (type == .delete ? [:] : nil), updatedProperties: type == .update ? properties ?? [] : nil)
        change.transaction = transaction
        transaction.changes!.append(change)
    }

    /// `NSPersistentHistoryTokenExpiredError`: transactions after `seen` were deleted, so a
    /// reader that merged up to `seen` would miss them without knowing.
    func expired(after seen: Int64, oldestKept: Int64) -> NSError {
        CoreDataError.make(NSPersistentHistoryTokenExpiredError,
            "The history after transaction \(seen) of store \(store.identifier ?? "") has been deleted (the oldest kept is \(oldestKept)); fetch from a newer token or reload everything",
            [NSAffectedStoresErrorKey: [store]])
    }
}
