/// `/dev/null` as a store URL: an anonymous store, private to the process and gone with it.
extension SQLiteStore {
    /// `/dev/null`, Xcode's template URL for previews and tests: a store that keeps nothing
    /// after it goes and shares nothing with any other store.
    var isAnonymous: Bool { url.map(StoreFile.isAnonymous) ?? false }

    /// A fresh private directory for an anonymous store's file, in memory-backed `/dev/shm`
    /// where the system has it. A file rather than SQLite's `:memory:`, so the writer and the
    /// reader pool work as they do on disk (a `:memory:` database is one per connection).
    static func makeAnonymousDirectory() throws -> URL {
        let shm = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        var isDirectory: ObjCBool = false
        let base = FileManager.default.fileExists(atPath: shm.path, isDirectory: &isDirectory) && isDirectory.boolValue
            && FileManager.default.isWritableFile(atPath: shm.path) ? shm : FileManager.default.temporaryDirectory
        let directory = base.appendingPathComponent("CoreData-anonymous-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
