/// The coordinator's store-file operations: the typed forms of recent releases (taking an
/// `NSPersistentStore.StoreType`) beside the string forms, reading and writing a store's metadata and
/// replacing one store's contents with another's.
extension NSPersistentStoreCoordinator {
    /// Opens (or creates) a store of `type`.
    ///
    /// For example:
    /// ```swift
    /// try coordinator.addPersistentStore(type: .sqlite, at: storeURL)
    /// ```
    @discardableResult
    public func addPersistentStore(type: NSPersistentStore.StoreType, configuration: String? = nil, at storeURL: URL,
                                   options: [AnyHashable: Any]? = nil) throws -> NSPersistentStore {
        try addPersistentStore(ofType: type.rawValue, configurationName: configuration, at: storeURL, options: options)
    }

    /// Deletes the store at `url` (the database and its WAL and shared-memory companions).
    public func destroyPersistentStore(at url: URL, type: NSPersistentStore.StoreType, options: [AnyHashable: Any]? = nil) throws {
        try destroyPersistentStore(at: url, type: type.rawValue, options: options)
    }

    /// Replaces the contents of the store at `destinationURL` with those of the store at
    /// `sourceURL`, creating the destination if it does not exist. The source is read as one
    /// consistent snapshot and left as it is; the destination must not be open in this
    /// coordinator.
    public func replacePersistentStore(at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil,
                                       withPersistentStoreFrom sourceURL: URL, sourceOptions: [AnyHashable: Any]? = nil,
                                       type: NSPersistentStore.StoreType) throws {
        try replacePersistentStore(at: destinationURL, destinationOptions: destinationOptions,
                                   withPersistentStoreFrom: sourceURL, sourceOptions: sourceOptions, ofType: type.rawValue)
    }

    /// The same with the type as a name; only `NSSQLiteStoreType` stores can be replaced.
    public func replacePersistentStore(at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil,
                                       withPersistentStoreFrom sourceURL: URL, sourceOptions: [AnyHashable: Any]? = nil,
                                       ofType storeType: String) throws {
        guard storeType == NSSQLiteStoreType else { throw Self.noStoreFiles(storeType) }
        // An open store keeps state (primary-key counters, cached rows) the copy would betray.
        guard persistentStore(for: destinationURL) == nil else {
            throw CoreDataError.misuse("The store at \(destinationURL.path) is open in this coordinator; remove it before replacing it",
                                       [NSURLErrorKey: destinationURL])
        }
        try SQLiteStore.copyStoreFile(from: sourceURL, to: destinationURL)
    }

    /// The metadata of the store at `url`, read without opening it for use.
    public class func metadataForPersistentStore(type: NSPersistentStore.StoreType, at url: URL,
                                                 options: [AnyHashable: Any]? = nil) throws -> [String: Any] {
        try metadataForPersistentStore(ofType: type.rawValue, at: url, options: options)
    }

    /// The metadata of the store at `url`, read without opening it for use; 260 if there is no
    /// file, 259 if the file is not a store.
    public class func metadataForPersistentStore(ofType storeType: String, at url: URL,
                                                 options: [AnyHashable: Any]? = nil) throws -> [String: Any] {
        switch storeType {
        case NSSQLiteStoreType: return try SQLiteStore.storedMetadata(at: url)
        case NSBinaryStoreType: return try BinaryStore.storedMetadata(at: url)
        default: throw noStoreFiles(storeType)
        }
    }

    /// Replaces the metadata of the store at `url` without opening it for use, as
    /// `setMetadata(_:for:)` does for an open store: the keys the store manages (its UUID,
    /// type and model version hashes) are kept whatever `metadata` says. 260 if there is no
    /// file, 259 if the file is not a store of `storeType`.
    ///
    /// For example:
    /// ```swift
    /// var metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
    /// metadata["lastImport"] = Date()
    /// try NSPersistentStoreCoordinator.setMetadata(metadata, forPersistentStoreOfType: NSSQLiteStoreType, at: url)
    /// ```
    ///
    /// A coordinator that has the store open keeps the metadata it read; the next
    /// `addPersistentStore` reads the new one.
    public class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreOfType storeType: String, at url: URL,
                                  options: [AnyHashable: Any]? = nil) throws {
        let current = try metadataForPersistentStore(ofType: storeType, at: url, options: options)
        let updated = self.metadata(metadata, keepingStoreKeysOf: current)
        switch storeType {
        case NSSQLiteStoreType: try SQLiteStore.writeStoredMetadata(updated, at: url)
        case NSBinaryStoreType: try BinaryStore.writeStoredMetadata(updated, at: url)
        default: throw noStoreFiles(storeType)
        }
    }

    /// The same with a typed store type.
    public class func setMetadata(_ metadata: [String: Any], type storeType: NSPersistentStore.StoreType, at url: URL,
                                  options: [AnyHashable: Any]? = nil) throws {
        try setMetadata(metadata, forPersistentStoreOfType: storeType.rawValue, at: url, options: options)
    }

    /// Only SQLite stores have files every operation here understands (binary store files
    /// answer metadata too).
    private static func noStoreFiles(_ storeType: String) -> NSError {
        CoreDataError.make(NSPersistentStoreInvalidTypeError,
                           "Store type '\(storeType)' keeps no store file this operation can read")
    }
}
