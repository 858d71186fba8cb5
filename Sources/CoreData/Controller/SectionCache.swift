/// The on-disk section cache behind `cacheName`: a later controller with the same name and an
/// equal request starts from it without fetching or computing sections.
///
/// The file (`SectionCacheFile`) records the request's signature (entity, predicate, sort
/// descriptors, section key path, limits, the model's entity version hashes), a stamp of the
/// store files (size and modification date of the store and its WAL), the sections, and every
/// row: entity, primary key and sort key. A cache is reused only when signature and stamp both match, so a changed request,
/// a changed model or any write to the store since the cache was written makes it a miss.
/// A live controller removes its file at its first change and writes it again when it goes
/// away, so a crash never leaves a stale cache behind.
final class SectionCache {
    let name: String
    private let signature: String
    private var isDirty = false
    /// The store stamp the content is known to match: set when written or read, and moved on
    /// by this controller's own context's saves. Another writer moves the store past it, and
    /// then the content is not written back (it may be stale).
    private var knownStamp: String?

    /// The context whose store the cache describes.
    private weak var context: NSManagedObjectContext?

    init(name: String, request: NSFetchRequest<NSFetchRequestResult>, entity: NSEntityDescription, sectionKeyPath: String?,
         context: NSManagedObjectContext) {
        self.name = name
        signature = Self.signature(request, entity: entity, sectionKeyPath: sectionKeyPath)
        self.context = context
    }

    /// Where caches live: the user's caches directory.
    static var directory: URL {
        let base = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return base.appendingPathComponent("CoreData.NSFetchedResultsController", isDirectory: true)
    }

    static func fileURL(named name: String) -> URL {
        let safe = name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }
        return directory.appendingPathComponent(String(safe) + "-" + StableHash.digest(name).prefix(4).map { String(format: "%02x", $0) }.joined() + ".cache")
    }

    /// Removes the cache named `name`, or every cache when nil: only files that are section
    /// caches (`SectionCacheFile.isCacheFile`); anything else in the folder stays, and the
    /// folder goes only once it is empty.
    static func delete(named name: String?) {
        if let name { return removeIfCache(fileURL(named: name)) }
        guard StoreFile(directory).kind == .directory,
              let entries = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for entry in entries where entry.hasSuffix(".cache") { removeIfCache(directory.appendingPathComponent(entry)) }
        rmdir(directory.path)
    }

    private static func removeIfCache(_ url: URL) {
        if SectionCacheFile.isCacheFile(StoreFile(url)) { unlink(url.path) }
    }

    /// The cached snapshot, if the file matches this request and the store is unchanged.
    /// `ordering` must be incremental: only such orders have keys worth storing.
    func cachedSnapshot(ordering: ResultOrdering) throws -> ResultsSnapshot<ResultIdentity, ResultSortKey>? {
        guard let context,
              let coordinator = context.persistentStoreCoordinator,
              let store = coordinator.persistentStores.first,
              let data = try? Data(contentsOf: Self.fileURL(named: name)),
              let file = SectionCacheFile(decoding: data),
              file.signature == signature,
              let stamp = Self.storeStamp(coordinator), file.storeStamp == stamp
        else { return nil }
        var entities: [NSEntityDescription] = []
        for entityName in file.entityNames {
            guard let entity = coordinator.managedObjectModel.entitiesByName[entityName] else { return nil }
            entities.append(entity)
        }
        var rows: [(id: ResultIdentity, key: ResultSortKey, section: String)] = []
        rows.reserveCapacity(file.rows.count)
        var cachedRows = file.rows.makeIterator()
        for section in file.sections {
            for _ in 0..<section.count {
                guard let row = cachedRows.next() else { return nil }
                let objectID = store.objectID(for: entities[row.entity], primaryKey: row.primaryKey)
                let object = context.object(with: objectID)
                rows.append((ResultIdentity(object), ResultSortKey(values: row.key.map(\.value), tieBreak: objectID), section.name))
            }
        }
        knownStamp = stamp
        return ResultsSnapshot(sortedRows: rows, areInIncreasingOrder: ordering.areInIncreasingOrder)
    }

    /// Writes `snapshot` as the cache's content.
    func write(_ snapshot: ResultsSnapshot<ResultIdentity, ResultSortKey>) {
        guard let coordinator = context?.persistentStoreCoordinator,
              let stamp = Self.storeStamp(coordinator)
        else { return }
        var entityNames: [String] = []
        var entityIndexes: [String: Int] = [:]
        var sections: [(name: String, count: Int)] = []
        var rows: [SectionCacheFile.Row] = []
        rows.reserveCapacity(snapshot.count)
        for section in snapshot.sections {
            sections.append((section.name, section.rows.count))
            for row in section.rows {
                let objectID = row.id.object.objectID
                let key = row.key.values.compactMap(CachedValue.init)
                // Unsaved objects or keys without a stored form: no cache rather than a wrong one.
                guard let primaryKey = objectID.primaryKey, let entityName = objectID.entity.name,
                      key.count == row.key.values.count
                else { return }
                let entity = entityIndexes[entityName] ?? entityNames.count
                if entity == entityNames.count {
                    entityNames.append(entityName)
                    entityIndexes[entityName] = entity
                }
                rows.append(SectionCacheFile.Row(entity: entity, primaryKey: primaryKey, key: key))
            }
        }
        let file = SectionCacheFile(signature: signature, storeStamp: stamp, entityNames: entityNames, sections: sections, rows: rows)
        let existing = StoreFile(Self.fileURL(named: name))
        // Written over only when what is there is a cache of ours.
        guard existing.kind == .nothing || SectionCacheFile.isCacheFile(existing) else { return }
        do {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try file.encoded().write(to: Self.fileURL(named: name), options: .atomic)
            isDirty = false
            knownStamp = stamp
        } catch {
            // A cache is an optimization: failing to write it only costs the next launch time.
        }
    }

    /// The content changed: drop the file now, write a fresh one when the controller goes away.
    func invalidate() {
        guard !isDirty else { return }
        isDirty = true
        Self.removeIfCache(Self.fileURL(named: name))
    }

    func flushIfDirty(snapshot: ResultsSnapshot<ResultIdentity, ResultSortKey>?) {
        guard isDirty, let snapshot, let coordinator = context?.persistentStoreCoordinator,
              let stamp = Self.storeStamp(coordinator), stamp == knownStamp
        else { return }
        write(snapshot)
    }

    /// The controller's context saved: the store now holds what the controller shows.
    func noteOwnSave() {
        guard let coordinator = context?.persistentStoreCoordinator else { return }
        knownStamp = Self.storeStamp(coordinator)
    }

    // MARK: Matching

    private static func signature(_ request: NSFetchRequest<NSFetchRequestResult>, entity: NSEntityDescription, sectionKeyPath: String?) -> String {
        let sorts = (request.sortDescriptors ?? []).map { descriptor in
            "\(descriptor.key ?? "?"):\(descriptor.ascending):\(descriptor.selector?.name ?? "")"
        }
        let versions = entity.managedObjectModel?.entityVersionHashesByName
            .sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value.base64EncodedString())" } ?? [entity.versionHash.base64EncodedString()]
        return [
            "entity=\(entity.name ?? "")",
            "predicate=\(request.predicate?.canonicalFormat ?? "")",
            "sort=\(sorts.joined(separator: ","))",
            "section=\(sectionKeyPath ?? "")",
            "limit=\(request.fetchLimit)", "offset=\(request.fetchOffset)",
            "subentities=\(request.includesSubentities)",
            "model=\(versions.joined(separator: ","))",
        ].joined(separator: "|")
    }

    /// Size and modification date of each store file and its WAL: any write changes it.
    private static func storeStamp(_ coordinator: NSPersistentStoreCoordinator) -> String? {
        var parts: [String] = []
        for store in coordinator.persistentStores {
            // Only a store kept in a file can be matched; an in-memory store never reuses a cache.
            guard store.type == NSSQLiteStoreType, let url = store.url, url.isFileURL,
                  FileManager.default.fileExists(atPath: url.path)
            else { return nil }
            for path in [url.path, url.path + "-wal"] {
                let attributes = try? FileManager.default.attributesOfItem(atPath: path)
                let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
                let date = (attributes?[.modificationDate] as? Date)?.timeIntervalSinceReferenceDate ?? 0
                parts.append("\(path):\(size):\(date)")
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "|")
    }
}
