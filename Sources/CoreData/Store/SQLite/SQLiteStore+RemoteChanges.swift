/// Remote change notifications: announcing this store's commits, and posting
/// `.NSPersistentStoreRemoteChange` for every commit to the file when asked.
extension SQLiteStore {
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
}
