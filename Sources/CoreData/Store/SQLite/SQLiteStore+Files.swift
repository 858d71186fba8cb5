import CSQLite

/// Store files handled without opening a store for use: reading metadata and copying a store.
extension SQLiteStore {
    /// The metadata of the store file at `url`: 260 if there is no file, 259 if it is not a
    /// store. Reads the file without writing to it.
    static func storedMetadata(at url: URL) throws -> [String: Any] {
        guard try StoreFile.checkedForSQLite(url).kind != .nothing, !StoreFile.isAnonymous(url) else {
            throw CoreDataError.make(CocoaError.fileReadNoSuchFile.rawValue, "There is no store at \(url.path)",
                                     [NSURLErrorKey: url, NSFilePathErrorKey: url.path])
        }
        let reader = SQLiteStore(persistentStoreCoordinator: nil, configurationName: nil, at: url, options: nil)
        return try reader.readMetadata(path: url.path)
    }

    /// Replaces the metadata of the store file at `url` in one transaction, without opening a
    /// store (the UUID column is left as it is): 260 if there is no file, 259 if it is not a
    /// store.
    static func writeStoredMetadata(_ metadata: [String: Any], at url: URL) throws {
        _ = try storedMetadata(at: url)
        do {
            let database = try SQLiteConnection(path: url.path, create: false)
            try database.transaction {
                _ = try database.run("UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1",
                                     [.blob(try SQLiteStoreMetadata.propertyList(of: metadata))])
            }
        } catch let error as SQLiteError {
            throw error.cocoaError(storeURL: url)
        }
    }

    /// Copies the store at `source` over (or into a new file at) `destination` with SQLite's
    /// backup API, which reads one consistent snapshot of the source, WAL included, and writes
    /// through the destination's own locks, so no half-copied file is ever visible. Only a
    /// SQLite database or an empty place is written; `/dev/null` is left as it is.
    static func copyStoreFile(from source: URL, to destination: URL) throws {
        let target = try StoreFile.checkedForRewritingSQLite(destination)
        // Refuses a source that is not a store (259) before touching the destination.
        _ = try storedMetadata(at: source)
        guard target.kind != .anonymous else { return }
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            let reader = try SQLiteConnection(path: source.path, create: false, readOnly: true)
            let writer = try SQLiteConnection(path: destination.path, create: true)
            try writer.replaceContents(with: reader)
            try writer.execute("PRAGMA journal_mode=WAL")
        } catch let error as SQLiteError {
            throw error.cocoaError(storeURL: destination)
        }
    }

    /// Empties the SQLite database at `url` in place, as Apple's `destroyPersistentStore` does:
    /// the file stays, with SQLite's header and no tables, and the next `addPersistentStore`
    /// there builds a new store in it. The `-wal` and `-shm` files go as SQLite's own close
    /// removes them, so a process still holding the database keeps valid companions.
    /// Anything that is not a SQLite database (a link included) is refused untouched; nothing
    /// there, or `/dev/null`, is a destroyed store already.
    static func destroyStoreFile(at url: URL) throws {
        let file = try StoreFile.checkedForRewritingSQLite(url)
        guard file.kind == .regularFile else { return }
        do {
            let database = try SQLiteConnection(path: url.path, create: false)
            try database.replaceContents(with: SQLiteConnection(path: ":memory:", create: true))
            _ = try database.scalar("PRAGMA wal_checkpoint(TRUNCATE)")
        } catch let error as SQLiteError {
            throw error.cocoaError(storeURL: url)
        }
    }

    /// Removes a SQLite store file this library created itself moments ago that did not become
    /// a store (a failed migration's destination), with the companions SQLite left beside it;
    /// only when it is still a SQLite database.
    static func removeCreatedStoreFile(at url: URL) {
        guard let file = try? StoreFile.checkedForRewritingSQLite(url), file.kind == .regularFile else { return }
        for suffix in ["-wal", "-shm", "-journal", ""] { unlink(url.path + suffix) }
    }
}
