/// The coordinator's view of persistent history.
extension NSPersistentStoreCoordinator {
    /// A token at the newest transaction of each of `stores` (all stores when nil) that tracks
    /// history; nil when none does. Fetching history after it returns only later saves.
    ///
    /// For example:
    /// ```swift
    /// var lastToken = coordinator.currentPersistentHistoryToken(fromStores: nil)
    /// ```
    public func currentPersistentHistoryToken(fromStores stores: [Any]?) -> NSPersistentHistoryToken? {
        let candidates = stores.map { $0.compactMap { $0 as? NSPersistentStore } } ?? persistentStores
        var storeTokens: [String: Int64] = [:]
        for case let store? in candidates.map({ rowStore($0)?.historyTracking }) where store.tracksHistory {
            guard let number = try? store.lastTransactionNumber() else { continue }
            storeTokens[store.identifier] = number
        }
        return storeTokens.isEmpty ? nil : NSPersistentHistoryToken(storeTokens: storeTokens)
    }
}
