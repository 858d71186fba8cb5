/// `NSBinaryStoreType`: the whole object graph in one file, read when the store is added and
/// written whole at every save, as Apple's binary store is; an `NSAtomicStore` like any other.
///
/// A save writes a new file beside the old one and renames it into place, so a reader, a crash
/// or a failed save leaves the previous file whole. A store at `/dev/null` keeps nothing.
final class BinaryStore: NSAtomicStore, @unchecked Sendable {
    override func load() throws {
        guard let url else { throw CoreDataError.misuse("A binary store needs a file URL") }
        guard let model = persistentStoreCoordinator?.managedObjectModel else {
            throw CoreDataError.misuse("A binary store is loaded by the coordinator it belongs to")
        }
        // No file, or a zero-length one (Apple's way of reserving a store's place): a new store.
        // A file that cannot be read throws rather than being taken for a new store and replaced.
        guard url.path != "/dev/null", FileManager.default.fileExists(atPath: url.path) else { return try create(at: url, model: model) }
        let data = try Data(contentsOf: url)
        guard !data.isEmpty else { return try create(at: url, model: model) }
        guard let archive = BinaryStoreArchive(data: data) else {
            throw CoreDataError.make(259, "The file at \(url.path) is not a binary store; it was left untouched.",
                                     [NSURLErrorKey: url, NSFilePathErrorKey: url.path])
        }
        metadata = archive.metadata
        lastReferences = archive.lastReferences
        try restore(archive, model: model)
    }

    override func save() throws {
        guard let url, url.path != "/dev/null" else { return }
        guard !isReadOnly else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The binary store at \(url.path) was added read-only", [NSURLErrorKey: url])
        }
        try replaceFile(at: url, with: try archive().encoded())
    }

    /// Writes the empty graph at once, so the store's UUID holds from its first opening on.
    private func create(at url: URL, model: NSManagedObjectModel) throws {
        metadata = [NSStoreUUIDKey: UUID().uuidString, NSStoreTypeKey: NSBinaryStoreType,
                    NSStoreModelVersionHashesKey: model.entityVersionHashesByName]
        guard url.path != "/dev/null" else { return }
        guard !isReadOnly else {
            throw CoreDataError.make(NSPersistentStoreOpenError, "There is no store at \(url.path) to open read-only",
                                     [NSURLErrorKey: url, NSFilePathErrorKey: url.path])
        }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try save()
    }

    /// Writes `data` to a new file beside `url`, flushed to disk, then renames it over `url`:
    /// the name points at the old file or the complete new one, never at half of one.
    private func replaceFile(at url: URL, with data: Data) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).saving-\(UUID().uuidString)")
        do {
            try data.write(to: temporary)
            let handle = try FileHandle(forWritingTo: temporary)
            try handle.synchronize()
            try handle.close()
            guard rename(temporary.path, url.path) == 0 else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno)) }
        } catch {
            unlink(temporary.path)
            throw CoreDataError.make(NSPersistentStoreSaveError, "Could not write the binary store at \(url.path): \(error)",
                                     [NSURLErrorKey: url, NSFilePathErrorKey: url.path, NSUnderlyingErrorKey: error])
        }
    }

    /// The metadata of the binary store file at `url`, read without opening a store: 260 if
    /// there is no file, 259 if it is not a binary store.
    static func storedMetadata(at url: URL) throws -> [String: Any] {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CoreDataError.make(CocoaError.fileReadNoSuchFile.rawValue, "There is no store at \(url.path)",
                                     [NSURLErrorKey: url, NSFilePathErrorKey: url.path])
        }
        guard let archive = BinaryStoreArchive(data: try Data(contentsOf: url)) else {
            throw CoreDataError.make(259, "The file at \(url.path) is not a binary store", [NSURLErrorKey: url, NSFilePathErrorKey: url.path])
        }
        return archive.metadata
    }
}
