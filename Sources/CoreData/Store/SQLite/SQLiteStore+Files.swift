import CSQLite

/// Store files handled without opening a store for use: reading metadata and copying a store.
extension SQLiteStore {
    /// The metadata of the store file at `url`: 260 if there is no file, 259 if it is not a
    /// store. Reads the file without writing to it.
    static func storedMetadata(at url: URL) throws -> [String: Any] {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CoreDataError.make(CocoaError.fileReadNoSuchFile.rawValue, "There is no store at \(url.path)",
                                     [NSURLErrorKey: url, NSFilePathErrorKey: url.path])
        }
        let reader = SQLiteStore(persistentStoreCoordinator: nil, configurationName: nil, at: url, options: nil)
        return try reader.readMetadata(path: url.path)
    }

    /// Copies the store at `source` over (or into a new file at) `destination` with SQLite's
    /// backup API, which reads one consistent snapshot of the source, WAL included, and writes
    /// through the destination's own locks, so no half-copied file is ever visible.
    static func copyStoreFile(from source: URL, to destination: URL) throws {
        // Refuses a source that is not a store (259) before touching the destination.
        _ = try storedMetadata(at: source)
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            let reader = try SQLiteConnection(path: source.path, create: false, readOnly: true)
            let writer = try SQLiteConnection(path: destination.path, create: true)
            guard let backup = sqlite3_backup_init(writer.rawHandle, "main", reader.rawHandle, "main") else {
                throw SQLiteError(code: sqlite3_errcode(writer.rawHandle), message: String(cString: sqlite3_errmsg(writer.rawHandle)), sql: nil)
            }
            let status = sqlite3_backup_step(backup, -1)
            sqlite3_backup_finish(backup)
            guard status == SQLITE_DONE else {
                throw SQLiteError(code: status, message: String(cString: sqlite3_errstr(status)), sql: nil)
            }
            try writer.execute("PRAGMA journal_mode=WAL")
        } catch let error as SQLiteError {
            throw error.cocoaError(storeURL: destination)
        }
    }
}
