/// Migration when a store opens with a newer model: lightweight, or through the stages of an
/// `NSStagedMigrationManager` given in the options.
extension SQLiteStore {
    /// Whether the options ask to migrate a store written with another model
    /// (`NSPersistentStoreDescription` sets this by default, as on Apple platforms).
    var migratesAutomatically: Bool {
        StoreOptions.flag(NSMigratePersistentStoresAutomaticallyOption, in: options ?? [:]) || stagedMigrationManager != nil
    }

    var stagedMigrationManager: NSStagedMigrationManager? {
        options?[NSPersistentStoreStagedMigrationManagerOptionKey] as? NSStagedMigrationManager
    }

    /// Migrates the store file at `path`, written with the model `metadata` records, to
    /// `model` in place. Throws 134130 when the source model cannot be found, 134140 when no
    /// mapping can be inferred (the inference error, 134190, underneath), and 134110 when the
    /// migration itself fails; in every case the file is left as it was (or, for a staged
    /// migration, as the last stage that completed left it).
    ///
    /// `sourceModel` is what `lightweightSourceModel` found (nil for a staged migration, whose
    /// manager looks among its stages' models first). Returns the metadata the migrated store
    /// records, read on the store's writer.
    func migrate(path: String, metadata: [String: Any], to model: NSManagedObjectModel,
                 from sourceModel: NSManagedObjectModel?) throws -> [String: Any] {
        if let staged = stagedMigrationManager {
            try staged.migrate(storeAt: storeURL, metadata: metadata, to: model, archived: { archivedModel(path: path) }) { source, destination in
                try migrateStep(path: path, from: source, to: destination, metadata: try readMetadata(path: path))
            }
        } else {
            guard let sourceModel else {
                throw LightweightMigration.missingSourceModel(of: "the store at \(path)", userInfo: [NSURLErrorKey: storeURL, NSFilePathErrorKey: path])
            }
            try migrateStep(path: path, from: sourceModel, to: model, metadata: metadata)
        }
        do {
            return try readMetadataRow(writer(path: path)) ?? [:]
        } catch let error as SQLiteError {
            throw error.cocoaError(storeURL: storeURL)
        }
    }

    /// The model the store file at `path` was written with, looked for once per open (the
    /// search lists the main bundle's folder): among `destination`'s versions, the main
    /// bundle and the store's own copy. Nil when none has the store's hashes, or when a staged
    /// migration will do its own search.
    func lightweightSourceModel(path: String, metadata: [String: Any], destination: NSManagedObjectModel) -> NSManagedObjectModel? {
        guard stagedMigrationManager == nil else { return nil }
        return destination.sourceModel(forStoreMetadata: metadata, archived: { archivedModel(path: path) })
    }

    /// The copy of the model the store file keeps, or nil; read without writing, as the store
    /// may yet be refused (the writer's close would checkpoint a WAL into it).
    private func archivedModel(path: String) -> NSManagedObjectModel? {
        try? SQLModelCache.model(inStoreAt: path)
    }

    /// One lightweight migration, in one transaction.
    private func migrateStep(path: String, from sourceModel: NSManagedObjectModel, to model: NSManagedObjectModel, metadata: [String: Any]) throws {
        let infers = StoreOptions.flag(NSInferMappingModelAutomaticallyOption, in: options ?? [:]) || stagedMigrationManager != nil
        let mapping = try LightweightMigration.mapping(of: "the store at \(path)", from: sourceModel, to: model, infers: infers,
                                                       options: options, userInfo: [NSURLErrorKey: storeURL, NSFilePathErrorKey: path])
        try run(mapping, onStoreAt: path, metadata: metadata, from: sourceModel, to: model)
    }

    /// Runs `mapping` on the store file at `path`: in SQL, in place, when every property
    /// mapping copies; otherwise object by object (`migrateByObjects`), which SQLMigration's
    /// refusal (134140) sends it to.
    func run(_ mapping: NSMappingModel, onStoreAt path: String, metadata: [String: Any],
             from sourceModel: NSManagedObjectModel, to model: NSManagedObjectModel) throws {
        let userInfo: [String: Any] = [NSURLErrorKey: storeURL, NSFilePathErrorKey: path]
        let inPlace: SQLMigration
        do {
            inPlace = try SQLMigration(source: sourceModel, destination: model, mapping: mapping)
        } catch {
            try migrateByObjects(path: path, from: sourceModel, to: model, mapping: mapping)
            return
        }
        do {
            let connection = try writer(path: path)
            try connection.transaction { try inPlace.run(on: connection, metadata: metadata) }
        } catch {
            throw CoreDataError.make(NSMigrationError, "The migration of the store at \(path) failed; the store is unchanged",
                                     userInfo.merging([NSUnderlyingErrorKey: error]) { $1 })
        }
    }

    /// Runs a mapping SQL cannot (computed values, migration policies) through
    /// `NSMigrationManager` into a new file beside the store, then renames it over the store:
    /// a crash at any moment leaves the old store or the new one, never a mix. Throws the
    /// manager's 134110, the store unchanged.
    private func migrateByObjects(path: String, from sourceModel: NSManagedObjectModel, to model: NSManagedObjectModel, mapping: NSMappingModel) throws {
        // Through a symbolic link, the database it leads to is what is replaced, not the link.
        let storeFile = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        let newFile = storeFile.deletingLastPathComponent().appendingPathComponent(".\(storeFile.lastPathComponent).migrating-\(UUID().uuidString)")
        // A writer an earlier stage migrated through must not outlive the old file: its
        // `-wal` and `-shm` names would be the new file's after the rename.
        closeWriter()
        // The old store's WAL belongs to the old file: folded into it (and, at close,
        // deleted) first, or SQLite would replay it onto the new file after the rename.
        try SQLiteConnection(path: path, create: false).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try NSMigrationManager(sourceModel: sourceModel, destinationModel: model)
            .migrateStore(from: storeFile, sourceType: NSSQLiteStoreType, options: nil, with: mapping,
                          toDestinationURL: newFile, destinationType: NSSQLiteStoreType, destinationOptions: nil)
        // The manager closed the new store, so its WAL is folded in and gone too.
        guard StoreFile(storeFile).isSQLiteDatabase, rename(newFile.path, storeFile.path) == 0 else {
            let error = CoreDataError.make(NSMigrationError, "Could not move the migrated store into place at \(path): \(String(cString: strerror(errno)))")
            Self.removeCreatedStoreFile(at: newFile)
            throw error
        }
    }
}
