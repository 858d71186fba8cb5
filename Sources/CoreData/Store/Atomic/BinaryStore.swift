/// `NSBinaryStoreType`: the whole object graph in one file, read when the store is added and
/// written whole at every save, as Apple's binary store is; an `NSAtomicStore` like any other.
///
/// A save writes a new file beside the old one and renames it into place, so a reader, a crash
/// or a failed save leaves the previous file whole. A store at `/dev/null` keeps nothing, and
/// a path holding anything but a binary store file is refused untouched (`StoreFile`).
final class BinaryStore: NSAtomicStore, @unchecked Sendable {
    override func load() throws {
        guard let url else { throw CoreDataError.misuse("A binary store needs a file URL") }
        guard let model = persistentStoreCoordinator?.managedObjectModel else {
            throw CoreDataError.misuse("A binary store is loaded by the coordinator it belongs to")
        }
        let file = StoreFile(url)
        guard file.kind != .nothing, file.kind != .anonymous else { return try create(at: url, model: model) }
        // Anything else that is not one of our files, an empty file included, throws
        // untouched rather than being taken for a new store and replaced.
        guard let archive = Self.archive(in: file) else { throw file.notAStoreError(NSBinaryStoreType) }
        metadata = archive.metadata
        lastReferences = archive.lastReferences
        try restore(archive, model: model)
    }

    override func save() throws {
        guard let url, !StoreFile.isAnonymous(url) else { return }
        guard !isReadOnly else {
            throw CoreDataError.make(NSPersistentStoreSaveError, "The binary store at \(url.path) was added read-only", [NSURLErrorKey: url])
        }
        try Self.replaceFile(at: url, with: try archive().encoded())
    }

    /// Writes the empty graph at once, so the store's UUID holds from its first opening on.
    private func create(at url: URL, model: NSManagedObjectModel) throws {
        metadata = [NSStoreUUIDKey: UUID().uuidString, NSStoreTypeKey: NSBinaryStoreType,
                    NSStoreModelVersionHashesKey: model.entityVersionHashesByName]
        guard !StoreFile.isAnonymous(url) else { return }
        guard !isReadOnly else {
            throw CoreDataError.make(NSPersistentStoreOpenError, "There is no store at \(url.path) to open read-only",
                                     [NSURLErrorKey: url, NSFilePathErrorKey: url.path])
        }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try save()
    }

    /// Writes `data` to a new file beside `url`, flushed to disk, then renames it over `url`:
    /// the name points at the old file or the complete new one, never at half of one. What is
    /// at `url` is looked at again first: the rename goes only over a binary store file.
    private static func replaceFile(at url: URL, with data: Data) throws {
        let file = StoreFile(url)
        guard file.kind == .nothing || Self.hasArchiveHeader(file) else { throw file.notAStoreError(NSBinaryStoreType) }
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).saving-\(UUID().uuidString)")
        do {
            try data.write(to: temporary, options: .withoutOverwriting)
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
        try storedArchive(at: url).metadata
    }

    /// Replaces the metadata of the binary store file at `url`, its objects kept: 260 if there
    /// is no file, 259 if it is not a binary store.
    static func writeStoredMetadata(_ metadata: [String: Any], at url: URL) throws {
        let archive = try storedArchive(at: url)
        let rewritten = BinaryStoreArchive(metadata: metadata, lastReferences: archive.lastReferences, objects: archive.objects)
        try replaceFile(at: url, with: try rewritten.encoded())
    }

    private static func storedArchive(at url: URL) throws -> BinaryStoreArchive {
        let file = StoreFile(url)
        guard file.kind != .nothing, file.kind != .anonymous else {
            throw CoreDataError.make(CocoaError.fileReadNoSuchFile.rawValue, "There is no store at \(url.path)",
                                     [NSURLErrorKey: url, NSFilePathErrorKey: url.path])
        }
        guard let archive = archive(in: file) else { throw file.notAStoreError(NSBinaryStoreType) }
        return archive
    }

    /// Removes the binary store file at `url`; nothing there, or `/dev/null`, is a no-op, and
    /// anything that is not a binary store file (a link included) throws 259 untouched.
    static func destroyStoreFile(at url: URL) throws {
        let file = StoreFile(url)
        guard file.kind != .nothing, file.kind != .anonymous else { return }
        guard archive(in: file) != nil else { throw file.notAStoreError(NSBinaryStoreType) }
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "Could not remove the binary store at \(url.path): \(String(cString: strerror(errno)))",
                                     [NSURLErrorKey: url, NSFilePathErrorKey: url.path])
        }
    }

    /// The archive in `file` when it is a regular file (not a link) holding one; its content
    /// is read only once its header says it is a binary property list.
    private static func archive(in file: StoreFile) -> BinaryStoreArchive? {
        guard hasArchiveHeader(file), let data = try? Data(contentsOf: file.url) else { return nil }
        return BinaryStoreArchive(data: data)
    }

    private static func hasArchiveHeader(_ file: StoreFile) -> Bool {
        file.kind == .regularFile && file.header.starts(with: Array("bplist00".utf8))
    }
}
