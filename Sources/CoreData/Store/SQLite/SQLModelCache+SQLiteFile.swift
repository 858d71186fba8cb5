/// The model cache of a store file, read without writing to it.
extension SQLModelCache {
    /// The model archived in the store file at `path`, or nil when it keeps none.
    static func model(inStoreAt path: String) throws -> NSManagedObjectModel? {
        try model(in: SQLiteConnection(path: path, create: false, readOnly: true), place: URL(fileURLWithPath: path))
    }
}
