/// The metadata row of a SQLite store (`Z_METADATA`, `Z_VERSION` 1) in Apple's layout: the
/// store's UUID in the `Z_UUID` column, everything else in the binary property list `Z_PLIST`.
///
/// Apple's framework reads the UUID from the column and never writes it into the list, so the
/// list we write leaves it out too; the API (`store.metadata`, `metadataForPersistentStore`)
/// still answers `NSStoreUUIDKey`, as Apple's does, by merging the column in when reading.
enum SQLiteStoreMetadata {
    /// Apple's keys for the bookkeeping it keeps beside the version hashes. Public on Apple
    /// platforms only as string values inside the list, so these stay internal.
    static let frameworkVersionKey = "NSPersistenceFrameworkVersion"
    static let versionIdentifiersKey = "NSStoreModelVersionIdentifiers"
    /// The keys the store keeps whatever metadata a program sets: the model's version hashes
    /// and what Apple records beside them.
    static let bookkeepingKeys = VersionHash.storeMetadataKeys + [frameworkVersionKey, versionIdentifiersKey]

    /// What we write as `NSPersistenceFrameworkVersion`. Apple writes its framework's build
    /// number (479 in the iOS 7 fixture, four digits in recent releases) and reads it only as
    /// information; ours is a fixed number of our own, not a claim to be any Apple release.
    static let frameworkVersion = 1000

    /// The metadata of a new store written with `model`: Apple's keys, plus the UUID the
    /// column will hold.
    static func initial(identifier: String, model: NSManagedObjectModel) -> [String: Any] {
        VersionHash.storeMetadata(of: model).merging([
            NSStoreUUIDKey: identifier, NSStoreTypeKey: NSSQLiteStoreType, frameworkVersionKey: frameworkVersion,
            versionIdentifiersKey: model.versionIdentifiers.compactMap { $0.base as? String }.sorted(),
        ]) { $1 }
    }

    /// The `Z_PLIST` bytes for `metadata`: a binary property list without the UUID, which
    /// lives in `Z_UUID`.
    static func propertyList(of metadata: [String: Any]) throws -> [UInt8] {
        var listed = metadata
        listed[NSStoreUUIDKey] = nil
        return Array(try PropertyListSerialization.data(fromPropertyList: listed, format: .binary, options: 0))
    }

    /// The metadata a row holds: its property list with the UUID added. A list that names a
    /// UUID itself (stores written here before the list followed Apple's) keeps it, so such a
    /// store keeps the identifier it always had; the two agree in every store we wrote.
    static func decode(plist: [UInt8], uuid: String?) -> [String: Any]? {
        guard var metadata = try? PropertyListSerialization.propertyList(from: Data(plist), format: nil) as? [String: Any] else { return nil }
        if (metadata[NSStoreUUIDKey] as? String ?? "").isEmpty, let uuid, !uuid.isEmpty { metadata[NSStoreUUIDKey] = uuid }
        return metadata
    }
}
