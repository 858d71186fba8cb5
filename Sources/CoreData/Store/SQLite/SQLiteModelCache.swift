/// The store's own bookkeeping rows that describe the store rather than objects: the metadata
/// property list in `Z_METADATA`, and the archive of the model the rows were written with in
/// `Z_MODELCACHE` (where Apple's stores keep theirs), from which a migration takes its source
/// model when the program no longer has it.
enum SQLiteModelCache {
    /// Replaces the metadata property list (the store's UUID column is left as it is).
    static func write(metadata: [String: Any], on connection: SQLiteConnection) throws {
        _ = try connection.run("UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1", [.blob(try SQLiteStoreMetadata.propertyList(of: metadata))])
    }

    /// Replaces the metadata and the model archive together.
    static func write(metadata: [String: Any], model: NSManagedObjectModel, on connection: SQLiteConnection) throws {
        try write(metadata: metadata, on: connection)
        try connection.execute("CREATE TABLE IF NOT EXISTS Z_MODELCACHE (Z_CONTENT BLOB)")
        _ = try connection.run("DELETE FROM Z_MODELCACHE")
        _ = try connection.run("INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", [.blob(Array(try ModelSchemaArchive.data(of: model)))])
    }

    /// The model archived in the store file at `path`, or nil when it keeps none (a store
    /// written before stores kept one, or by Apple's framework, whose archive is its own).
    static func model(inStoreAt path: String) throws -> NSManagedObjectModel? {
        let reader = try SQLiteConnection(path: path, create: false, readOnly: true)
        guard try reader.scalar("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'Z_MODELCACHE'") != nil,
              case .blob(let bytes)? = try reader.scalar("SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1") else { return nil }
        return try? ModelSchemaArchive.model(from: Data(bytes), place: URL(fileURLWithPath: path))
    }
}
