/// A store in one SQLite file, in Apple's layout (DESIGN.md §2), reading rows on demand.
final class SQLiteStore: NSPersistentStore, SQLTableStore, QueryGenerationStore, @unchecked Sendable {
    var dialect: SQLDialect { .sqlite }
    /// The one connection that writes, and reads inside a write (a batch delete's rule walk).
    private var connection: SQLiteConnection?
    /// Connections for reads outside a write, in parallel with it and with each other.
    /// Behind its own lock, not the store's: a read must reach the pool while a save holds the
    /// store's lock for its whole write transaction.
    private let readers = Locked<SQLiteReaderPool?>(nil)
    /// The thread inside `writeTransaction`: its reads must see the writer's uncommitted rows.
    private let writingThread = Locked<pthread_t?>(nil)
    /// Set once by `load(model:)` before any read.
    private(set) var catalog = SQLTableCatalog(dialect: .sqlite)
    private var model: NSManagedObjectModel?
    /// Metadata set through `NSPersistentStoreCoordinator.setMetadata(_:for:)`, written with the
    /// next save, as on Apple platforms. Read and written only under the store's lock.
    var pendingMetadata: [String: Any]?
    /// Posts `.NSPersistentStoreRemoteChange` when the file commits, if the options ask.
    private var commitWatcher: SQLiteCommitWatcher?
    /// Where an anonymous (`/dev/null`) store keeps its file; removed with the store.
    private var anonymousDirectory: URL?

    var storeURL: URL { url! }
    var storeName: String { "the store at \(storeURL.path)" }

    deinit {
        commitWatcher?.stop()
        if let anonymousDirectory { try? FileManager.default.removeItem(at: anonymousDirectory) }
    }

    func load(model: NSManagedObjectModel) throws {
        guard url != nil else { throw CoreDataError.misuse("A SQLite store needs a file URL") }
        try locked {
            self.model = model
            catalog = SQLTableCatalog(model: model, dialect: .sqlite)
            let file = try StoreFile.checkedForSQLite(storeURL)
            if isAnonymous { anonymousDirectory = try Self.makeAnonymousDirectory() }
            let path = anonymousDirectory?.appendingPathComponent("store.sqlite").path ?? storeURL.path
            if file.kind == .nothing || isAnonymous {
                guard !isReadOnly else {
                    throw CoreDataError.make(NSPersistentStoreOpenError, "There is no store at \(path) to open read-only",
                                             [NSURLErrorKey: storeURL, NSFilePathErrorKey: path])
                }
                try FileManager.default.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
                try refuseOrphanedWAL(path: path)
                try createStoreFile(path: path, model: model)
            } else if try Self.isEmptied(path: path) {
                try fillEmptiedStore(path: path, model: model)
            }
            // Check the file read-only first, so a foreign or corrupt file is never written to,
            // not even by switching its journal mode.
            var storedMetadata = try readMetadata(path: path)
            if !model.isConfiguration(withName: configurationName, compatibleWithStoreMetadata: storedMetadata) {
                let sourceModel = lightweightSourceModel(path: path, metadata: storedMetadata, destination: model)
                if try !opensAsWritten(path: path, model: model, sourceModel: sourceModel) {
                    if migratesAutomatically, !isReadOnly {
                        storedMetadata = try migrate(path: path, metadata: storedMetadata, to: model, from: sourceModel)
                    }
                    guard model.isConfiguration(withName: configurationName, compatibleWithStoreMetadata: storedMetadata) else {
                        throw CoreDataError.make(NSPersistentStoreIncompatibleVersionHashError,
                            "The model used to open the store is incompatible with the one used to create the store at \(path)",
                            [NSURLErrorKey: storeURL, NSFilePathErrorKey: path, "metadata": storedMetadata])
                    }
                }
            }
            // A store an earlier release wrote records our old hashes: it gets Apple's with
            // its next save, so that Apple's framework then opens it without migrating.
            if storedMetadata[NSStoreModelVersionHashesKey] as? [String: Data] == LegacyVersionHash.entityHashes(of: model) {
                storedMetadata.merge(VersionHash.storeMetadata(of: model)) { $1 }
                pendingMetadata = storedMetadata
            }
            metadata = storedMetadata
            identifier = storedMetadata[NSStoreUUIDKey] as? String ?? UUID().uuidString
            let writer = try writer(path: path)
            do {
                try runMaintenanceOptions(on: writer)
                try createMissingFetchIndexes(writer)
                try prepareHistoryTables(writer)
                commitWatcher = try startRemoteChangeWatcher()
            } catch let error as SQLiteError {
                throw error.cocoaError(storeURL: storeURL)
            }
            let pool = SQLiteReaderPool(capacity: Self.readerCapacity) { [unowned self] in try open(path: path, asReader: true) }
            readers.withLock { $0 = pool }
        }
    }

    /// Readers open at once: one per core and one more, as a reader mostly waits on the
    /// caller's work between statements.
    static let readerCapacity = ProcessInfo.processInfo.activeProcessorCount + 1

    /// Builds a new store in a temporary file beside `path`, then links it into place.
    ///
    /// Creating the file in place would leave an empty or schema-less file behind if the
    /// process died half-way, and such a file is refused as "not a store" ever after (found by
    /// the crash tests, RELIABILITY.md). `link` also fails rather than replaces when another
    /// process created the store first, so both then open the same file.
    private func createStoreFile(path: String, model: NSManagedObjectModel) throws {
        let file = URL(fileURLWithPath: path)
        let temporary = "\(file.deletingLastPathComponent().path)/.\(file.lastPathComponent).creating-\(UUID().uuidString)"
        defer { for suffix in ["", "-journal", "-wal", "-shm"] { unlink(temporary + suffix) } }
        do {
            let connection = try SQLiteConnection(path: temporary, create: true)
            identifier = UUID().uuidString
            metadata = SQLiteStoreMetadata.initial(identifier: identifier!, model: model)
            try createSchema(connection, model: model)
            // Recorded in the file's header; closing the connection removes the empty WAL.
            try connection.execute("PRAGMA journal_mode=WAL")
        } catch let error as SQLiteError {
            throw error.cocoaError(storeURL: storeURL)
        }
        if link(temporary, path) != 0 && errno != EEXIST {
            throw CoreDataError.make(NSPersistentStoreOpenError, "Could not create the store at \(path): \(String(cString: strerror(errno)))",
                                     [NSURLErrorKey: storeURL, NSFilePathErrorKey: path, NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(errno))])
        }
    }

    /// A database `destroyPersistentStore` emptied (SQLite's header, no tables) is filled in
    /// place, as on Apple platforms, where a destroyed store's file stays for the next add.
    private func fillEmptiedStore(path: String, model: NSManagedObjectModel) throws {
        do {
            let connection = try SQLiteConnection(path: path, create: false)
            identifier = UUID().uuidString
            metadata = SQLiteStoreMetadata.initial(identifier: identifier!, model: model)
            try createSchema(connection, model: model)
        } catch let error as SQLiteError {
            throw error.cocoaError(storeURL: storeURL)
        }
    }

    /// Whether the SQLite database at `path` holds no table, index or view at all.
    static func isEmptied(path: String) throws -> Bool {
        do {
            let reader = try SQLiteConnection(path: path, create: false, readOnly: true)
            return try reader.scalar("SELECT COUNT(*) FROM sqlite_master") == .integer(0)
        } catch {
            // Not readable as a database: `readMetadata` says why.
            return false
        }
    }

    /// A WAL file without its database holds the newest saves of a store whose main file was
    /// moved or deleted. SQLite would delete it on creating a new database there (or replay it
    /// into one), so we refuse and leave it alone.
    private func refuseOrphanedWAL(path: String) throws {
        let wal = path + "-wal"
        guard let size = (try? FileManager.default.attributesOfItem(atPath: wal))?[.size] as? NSNumber, size.intValue > 0 else { return }
        throw CoreDataError.make(NSPersistentStoreOpenError,
            "There is no store at \(path), but its write-ahead log \(wal) (\(size.intValue) bytes) is there: the database file was moved or deleted without it. Put the database back beside it, or remove the -wal file to start a new store; both were left untouched.",
            [NSURLErrorKey: storeURL, NSFilePathErrorKey: path])
    }

    /// The store's writer, opened now if it is not open yet. An in-place migration runs on it
    /// and the store keeps it: a connection of the migration's own would, on closing as the
    /// file's last, checkpoint the WAL it wrote (fsyncs of the WAL, its folder and the
    /// database) and delete it, for the store to make a new one; this way the store's close
    /// checkpoints once.
    func writer(path: String) throws -> SQLiteConnection {
        if let connection { return connection }
        let opened = try open(path: path)
        connection = opened
        return opened
    }

    /// Closes the writer a migration opened, before a migration replaces the file under it.
    func closeWriter() {
        connection = nil
    }

    /// Opens the existing store file (creation writes a temporary file and moves it in place)
    /// as the writer, or as one more `query_only` reader for the pool.
    private func open(path: String, asReader: Bool = false) throws -> SQLiteConnection {
        let timeout = (options?[NSPersistentStoreTimeoutOption] as? Double) ?? 10
        do {
            let connection = try SQLiteConnection(path: path, create: false, readOnly: isReadOnly,
                                                  busyTimeoutMilliseconds: Int32(timeout * 1000))
            if asReader {
                try connection.execute("PRAGMA query_only=1")
            } else if !isReadOnly {
                try connection.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=OFF")
            }
            // On the writer only: a reader is query_only, and a pragma may write (user_version).
            if !asReader { for pragma in try requestedPragmas() { try connection.execute(pragma) } }
            if let handle = connection.rawHandle { try SQLCompiler.registerFunctions(on: handle) }
            return connection
        } catch let error as SQLiteError {
            throw error.cocoaError(storeURL: storeURL)
        }
    }

    /// Reads Z_METADATA without modifying the file; a file that is not our store throws 259.
    ///
    /// A process killed in the middle of a large transaction (a migration) can leave the WAL's
    /// index unfinished, or, in a file still in rollback-journal mode (Apple's files, or a copy
    /// made with `VACUUM INTO`), a hot journal; only a writing connection may recover either,
    /// so a read-only open fails with SQLITE_READONLY. For a store opened for writing, one
    /// writing connection is opened and closed first, which recovers the file (dropping the
    /// uncommitted changes, as any open would) without changing what the database holds.
    func readMetadata(path: String) throws -> [String: Any] {
        do {
            return try readMetadataReadOnly(path: path)
        } catch let error as SQLiteError where error.code & 0xff == 8 /* SQLITE_READONLY */ {
            // Or a rollback journal left by a kill before the file was switched to WAL.
            let unfinished = ["-wal", "-journal"].contains { FileManager.default.fileExists(atPath: path + $0) }
            guard unfinished, !isReadOnly else { throw notAStore("is not a readable SQLite database (\(error.message))") }
            do {
                let recovering = try SQLiteConnection(path: path, create: false)
                _ = try recovering.scalar("SELECT COUNT(*) FROM sqlite_master")
            } catch let error as SQLiteError {
                throw notAStore("is not a readable SQLite database (\(error.message))")
            }
            return try readMetadataReadOnly(path: path)
        }
    }

    private func readMetadataReadOnly(path: String) throws -> [String: Any] {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if let size = attributes?[.size] as? NSNumber, size.intValue == 0 {
            throw notAStore("is empty (zero bytes)")
        }
        do {
            // The plain path with the read-only flag, not a `file:` URI: in a URI, `?`, `#` and
            // `%xx` in the path would name another file.
            let reader = try SQLiteConnection(path: path, create: false, readOnly: true)
            guard let metadata = try readMetadataRow(reader) else { throw notAStore("has no Core Data metadata") }
            return metadata
        } catch let error as SQLiteError {
            if error.message.contains("no such table") { throw notAStore("is an SQLite database but not a Core Data store") }
            if error.code & 0xff == 8 { throw error }
            throw notAStore("is not a readable SQLite database (\(error.message))")
        }
    }

    private func notAStore(_ reason: String) -> NSError {
        CoreDataError.make(259, "The file at \(storeURL.path) \(reason); it was left untouched.",
                           [NSURLErrorKey: storeURL, NSFilePathErrorKey: storeURL.path])
    }

    /// Creates the store's tables, unless another connection made any table first (checked
    /// inside the write transaction, so two processes filling one emptied file cannot both).
    private func createSchema(_ connection: SQLiteConnection, model: NSManagedObjectModel) throws {
        try connection.transaction {
            guard try connection.scalar("SELECT COUNT(*) FROM sqlite_master") == .integer(0) else { return }
            for layout in catalog.layouts.values.sorted(by: { $0.table < $1.table }) {
                try connection.execute(layout.createStatement)
                for index in layout.indexStatements { try connection.execute(index) }
            }
            let joinTables = SQLiteSchema.joinTableStatements(in: model)
            for statement in joinTables.tables + joinTables.indexes { try connection.execute(statement) }
            try connection.execute("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
            for entity in model.entities {
                try connection.run("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                                   [.integer(Int64(entity.entityNumber)), .text(entity.name ?? ""), .integer(Int64(entity.superentity?.entityNumber ?? 0))])
            }
            try connection.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
            // The property list is written with the model archive, just below.
            try connection.run("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID) VALUES (1, ?)", [.text(identifier)])
            try SQLModelCache.write(metadata: metadata, model: model, on: connection)
        }
    }

    /// Fetch indexes do not enter the version hash (nor do they on Apple platforms), so a store
    /// written before the model gained one opens without a migration; it gets the index here.
    private func createMissingFetchIndexes(_ connection: SQLiteConnection) throws {
        guard !isReadOnly else { return }
        for statement in catalog.layouts.values.flatMap(\.fetchIndexStatements) {
            try connection.execute(statement.replacingOccurrences(of: "CREATE INDEX ", with: "CREATE INDEX IF NOT EXISTS "))
        }
    }

    func close() {
        locked {
            commitWatcher?.stop()
            commitWatcher = nil
            readers.withLock { pool in
                pool?.close()
                pool = nil
            }
            connection = nil
            if let anonymousDirectory { try? FileManager.default.removeItem(at: anonymousDirectory) }
            anonymousDirectory = nil
        }
    }

    // MARK: Reading

    private func database() throws -> SQLiteConnection {
        guard let connection else { throw CoreDataError.misuse("The store at \(storeURL.path) is not open") }
        return connection
    }

    /// Runs `body` in one write transaction under the store's lock.
    func writeTransaction<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        if isReadOnly { throw CoreDataError.make(NSPersistentStoreSaveError, "The store at \(storeURL.path) is read-only") }
        return try locked {
            let outermost = writingThread.withLock { thread in
                defer { thread = pthread_self() }
                return thread == nil
            }
            defer { if outermost { writingThread.withLock { $0 = nil } } }
            let result = try run { connection in try connection.transaction { try body(connection) } }
            if outermost { announceCommit() }
            return result
        }
    }

    /// Runs `body` on a reader in one read transaction (one consistent snapshot; a
    /// `singleStatement` body needs none), or on the writer when the calling thread is inside a
    /// write and must see its uncommitted rows.
    func read<T>(singleStatement: Bool, _ body: (SQLiteConnection) throws -> T) throws -> T {
        let insideWrite = writingThread.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
        guard !insideWrite, let readers = readers.withLock({ $0 }) else { return try locked { try run(body) } }
        return try mappingFailures {
            if let generation = pinnedGeneration { return try generation.read(of: self, body) }
            return try readers.read(singleStatement: singleStatement, body)
        }
    }

    /// A new query generation: a reader of its own, outside the pool, inside a read
    /// transaction that has read once (in WAL mode that fixes its snapshot).
    func makeQueryGeneration() throws -> QueryGeneration {
        guard let readers = readers.withLock({ $0 }) else {
            throw CoreDataError.misuse("The store at \(storeURL.path) is not open")
        }
        return try mappingFailures {
            let reader = try readers.openDedicatedReader()
            try reader.run("BEGIN DEFERRED")
            try reader.query("SELECT 1 FROM Z_METADATA LIMIT 1") { _ in }
            return QueryGeneration(store: self, session: reader) { _ = try? reader.run("ROLLBACK") }
        }
    }

    /// Runs `body` on the connection, turning SQLite failures into Cocoa errors.
    func run<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try mappingFailures { try body(try database()) }
    }

    // MARK: Writing

    func allocatePrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64] {
        try locked {
            try run { connection in
                // Keys come from the root entity's counter: every entity of a table shares Z_PK.
                let root = Int64(entity.rootEntity.entityNumber)
                return try connection.transaction {
                    guard case .integer(let current)? = try connection.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(root)]) else {
                        throw CoreDataError.misuse("Z_PRIMARYKEY has no row for entity \(entity.name ?? "")")
                    }
                    try connection.run("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", [.integer(current + Int64(count)), .integer(root)])
                    return Array((current + 1)...(current + Int64(count)))
                }
            }
        }
    }
}
