import CoreData
import Foundation

/// Brings saves that other processes make to the same store file into a container's view
/// context, as Apple's history-based apps do: on `.NSPersistentStoreRemoteChange` it fetches
/// the persistent history after the last token it saw and merges the transactions of other
/// processes; a fetched results controller on the view context then reports the changes.
///
/// The store must be opened with persistent history tracking and remote change notifications
/// (`ExampleStore.open(…, followsOtherProcesses: true)`).
@MainActor public final class OtherProcessSaves {
    private let context: NSManagedObjectContext
    private var token: NSPersistentHistoryToken?
    private var observer: NSObjectProtocol?
    private let merged: @MainActor (Int) -> Void

    /// `merged` runs on the main queue after each merge, with the number of transactions merged.
    public init(container: NSPersistentContainer, merged: @escaping @MainActor (Int) -> Void) {
        context = container.viewContext
        self.merged = merged
        token = container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
        observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: container.persistentStoreCoordinator,
                                                          queue: .main) { [weak self] _ in
            MainActor.assumeIsolated { self?.mergeNewHistory() }
        }
    }

    /// Merges every transaction after the token that another process wrote; this process's own
    /// saves are already in its contexts. A failure is printed, and the next notification retries.
    private func mergeNewHistory() {
        do {
            let request = NSPersistentHistoryChangeRequest.fetchHistory(after: token)
            let result = try context.execute(request) as? NSPersistentHistoryResult
            let transactions = result?.result as? [NSPersistentHistoryTransaction] ?? []
            guard let last = transactions.last else { return }
            let ownProcess = String(ProcessInfo.processInfo.processIdentifier)
            let others = transactions.filter { $0.processID != ownProcess }
            for transaction in others { context.mergeChanges(fromContextDidSave: transaction.objectIDNotification()) }
            token = last.token
            guard !others.isEmpty else { return }
            merged(others.count)
            fflush(nil)  // between commands nothing else flushes what `merged` printed
        } catch {
            print("error: cannot read the store's history: \(CommandLoop.message(for: error))")
        }
    }
}
