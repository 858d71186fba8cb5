/// The store's own bookkeeping rows that describe the store rather than objects: the metadata
/// property list in `Z_METADATA`, and the archive of the model the rows were written with in
/// `Z_MODELCACHE` (where Apple's stores keep theirs), from which a migration takes its source
/// model when the program no longer has it. The same rows in a SQLite file and a PostgreSQL
/// schema.
enum SQLModelCache {
    /// Replaces the metadata property list (the store's UUID column is left as it is).
    static func write(metadata: [String: Any], on session: some SQLSession) throws {
        try session.write("UPDATE Z_METADATA SET Z_PLIST = \(session.dialect.placeholder(1)) WHERE Z_VERSION = 1",
                          [.blob(try SQLiteStoreMetadata.propertyList(of: metadata))])
    }

    /// Replaces the metadata and the model archive together.
    static func write(metadata: [String: Any], model: NSManagedObjectModel, on session: some SQLSession) throws {
        try write(metadata: metadata, on: session)
        try write(model: model, on: session)
    }

    /// Replaces the model archive.
    static func write(model: NSManagedObjectModel, on session: some SQLSession) throws {
        try session.write("CREATE TABLE IF NOT EXISTS Z_MODELCACHE (Z_CONTENT \(session.dialect.columnType("BLOB")))", [])
        try session.write("DELETE FROM Z_MODELCACHE", [])
        try session.write("INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (\(session.dialect.placeholder(1)))",
                          [.blob(Array(try ModelSchemaArchive.data(of: model)))])
    }

    /// The model archived in the store `session` reads, or nil when it keeps none (a store
    /// written before stores kept one, or by Apple's framework, whose archive is its own).
    /// `place` names the store in a decoding error.
    static func model(in session: some SQLSession, place: URL) throws -> NSManagedObjectModel? {
        guard try session.scalar(session.dialect.tableExistsQuery, [.text("Z_MODELCACHE")]) != nil,
              case .blob(let bytes)? = try session.scalar("SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1", []) else { return nil }
        return try? ModelSchemaArchive.model(from: Data(bytes), place: place)
    }
}
