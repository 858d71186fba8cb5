/// Remote change notifications: announcing this store's commits, and posting
/// `.NSPersistentStoreRemoteChange` for every commit to the file when asked.
extension SQLiteStore {
    var postsRemoteChanges: Bool { StoreOptions.flag(NSPersistentStoreRemoteChangeNotificationPostOptionKey, in: options ?? [:]) }

    /// After each commit: tells watchers of the file, in this process and others.
    func announceCommit() {
        guard tracksHistory || postsRemoteChanges, !isAnonymous else { return }
        SQLiteCommitSignal.send(forStoreAt: storeURL.path)
    }

    /// Starts the watcher when the option asks for one.
    func startRemoteChangeWatcher() throws -> SQLiteCommitWatcher? {
        guard postsRemoteChanges, !isAnonymous else { return nil }
        return try SQLiteCommitWatcher(storePath: storeURL.path) { [weak self] in self?.postRemoteChange() }
    }

    private func postRemoteChange() {
        guard let coordinator = persistentStoreCoordinator, let identifier else { return }
        var userInfo: [String: Any] = [NSStoreUUIDKey: identifier]
        if tracksHistory, let number = try? lastTransactionNumber() {
            userInfo[NSPersistentHistoryTokenKey] = NSPersistentHistoryToken(storeTokens: [identifier: number])
        }
        NotificationCenter.default.post(name: .NSPersistentStoreRemoteChange, object: coordinator, userInfo: userInfo)
    }
}
