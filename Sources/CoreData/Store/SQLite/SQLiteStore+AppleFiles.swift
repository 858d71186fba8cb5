/// Store files written by Apple's Core Data: their metadata row, and opening those whose
/// recorded hashes are not the model's although their tables are.
extension SQLiteStore {
    /// The metadata in `Z_METADATA` (`SQLiteStoreMetadata`), or nil if the row or its
    /// property list is missing.
    func readMetadataRow(_ reader: SQLiteConnection) throws -> [String: Any]? {
        var metadata: [String: Any]?
        try reader.query("SELECT Z_PLIST, Z_UUID FROM Z_METADATA WHERE Z_VERSION = 1") { row in
            guard case .blob(let plist) = row.value(at: 0) else { return }
            metadata = SQLiteStoreMetadata.decode(plist: plist, uuid: row.isNull(at: 1) ? nil : row.text(at: 1))
        }
        return metadata
    }

    /// Whether the store at `path`, whose recorded hashes are not `model`'s, is opened as it is,
    /// keeping its hashes: when no model we can find wrote it (`sourceModel` is nil, so no
    /// migration could start) and its tables already hold `model`'s layout
    /// (`SQLiteSchemaCheck`). A store Apple's framework wrote with this model opens by its
    /// hashes, which are ours too; this covers the hash inputs no Apple-written file has
    /// checked yet (README), and keeping the file's hashes keeps it one Apple opens as it did.
    ///
    /// A store whose model is found still migrates, even if its tables happen to match: a
    /// change such as an attribute turning mandatory needs the migration's checks.
    func opensAsWritten(path: String, model: NSManagedObjectModel, sourceModel: NSManagedObjectModel?) throws -> Bool {
        guard stagedMigrationManager == nil, sourceModel == nil else { return false }
        do {
            let reader = try SQLiteConnection(path: path, create: false, readOnly: true)
            return try SQLiteSchemaCheck.differences(in: reader, layouts: Array(catalog.layouts.values), model: model).isEmpty
        } catch let error as SQLiteError {
            throw error.cocoaError(storeURL: storeURL)
        }
    }
}
