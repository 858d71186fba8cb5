/// A store that records persistent history when `NSPersistentHistoryTrackingKey` is set: the
/// SQLite store. The context filters and shapes what it returns (`NSPersistentHistoryChangeRequest`).
protocol HistoryTracking: NSPersistentStore {
    /// Whether the store was added with `NSPersistentHistoryTrackingKey` = true.
    var tracksHistory: Bool { get }
    /// The number of the newest recorded transaction; 0 when there is none yet.
    func lastTransactionNumber() throws -> Int64
    /// The transactions after `boundary`, oldest first, with their changes.
    func transactions(after boundary: HistoryBoundary) throws -> [NSPersistentHistoryTransaction]
    /// Deletes the transactions before `boundary` and their changes; returns how many went.
    func deleteTransactions(before boundary: HistoryBoundary) throws -> Int
}

extension HistoryTracking {
    var tracksHistory: Bool { StoreOptions.flag(NSPersistentHistoryTrackingKey, in: options ?? [:]) }
    var postsRemoteChanges: Bool { StoreOptions.flag(NSPersistentStoreRemoteChangeNotificationPostOptionKey, in: options ?? [:]) }

    /// Posts `.NSPersistentStoreRemoteChange` for a commit the store was told of, with the
    /// store's URL and the history token after it when history is tracked.
    func postRemoteChange() {
        guard let coordinator = persistentStoreCoordinator, let identifier else { return }
        var userInfo: [String: Any] = [NSStoreUUIDKey: identifier]
        if let url { userInfo[NSPersistentStoreURLKey] = url }
        if tracksHistory, let number = try? lastTransactionNumber() {
            userInfo[NSPersistentHistoryTokenKey] = NSPersistentHistoryToken(storeTokens: [identifier: number])
        }
        NotificationCenter.default.post(name: .NSPersistentStoreRemoteChange, object: coordinator, userInfo: userInfo)
    }
}

/// Where a history request starts or ends within one store.
enum HistoryBoundary: Equatable {
    /// The whole history.
    case everything
    /// Exclusive: the transaction with this number is neither fetched after nor deleted before.
    case transactionNumber(Int64)
    case date(Date)
}

/// Who made a save or batch request, recorded with its history transaction. It travels with
/// the changes because a store is never handed the saving context.
struct TransactionOrigin: Sendable {
    var author: String?
    var contextName: String?

    init(context: NSManagedObjectContext) {
        author = context.transactionAuthor
        contextName = context.name
    }
}
