import CoreData
import WorldCupStore

/// Bringing saves made elsewhere (`webtable tap` in another process, another program on the
/// same file) into the controller's context, from the store's persistent history.
extension LiveTable {
    /// Watches the coordinator for commits to the store file by anyone.
    ///
    /// The notification comes on a background thread and says only that something was
    /// committed; the work moves to the context's queue, and the history says what changed.
    func startMergingRemoteChanges(of coordinator: NSPersistentStoreCoordinator) {
        remoteChangeObserver = NotificationCenter.default.addObserver(
            forName: .NSPersistentStoreRemoteChange, object: coordinator, queue: nil
        ) { [weak self] _ in
            guard let self else { return }
            self.context.perform { self.mergeNewHistory() }
        }
    }

    /// Merges every transaction after the last one merged, except this context's own saves
    /// (already in it), then remembers where it stopped. Call on the context's queue.
    ///
    /// Notifications can arrive late or several for one commit; reading from the token rather
    /// than from the notification makes each transaction count once whatever their number.
    func mergeNewHistory() {
        let request = NSPersistentHistoryChangeRequest.fetchHistory(after: historyToken)
        request.resultType = .transactionsAndChanges
        do {
            let result = try context.execute(request) as? NSPersistentHistoryResult
            let transactions = result?.result as? [NSPersistentHistoryTransaction] ?? []
            for transaction in transactions {
                if transaction.author != context.transactionAuthor {
                    context.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                }
                historyToken = transaction.token
            }
        } catch {
            say("could not read the store's history: \(error)")
        }
    }
}
