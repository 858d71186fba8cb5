/// Moving a store to a new file (of the same or another type), and cleaning up after a store
/// file this library created that did not become a store.
extension NSPersistentStoreCoordinator {
    /// Copies `store`'s saved objects into a new store of `storeType` at `url`, takes `store`
    /// out of the coordinator and returns the new store in its place. The old store's file is
    /// left as it is.
    ///
    /// For example:
    /// ```swift
    /// let moved = try coordinator.migratePersistentStore(store, to: backupURL, type: .sqlite)
    /// ```
    ///
    /// `url` must hold nothing yet (or a database `destroyPersistentStore` emptied); anything
    /// else there is left untouched and the call throws. The objects are copied as a migration
    /// with an identity mapping does, so they get new IDs in the new store. A store with no
    /// file of its own (in-memory, or at `/dev/null`) cannot be the source, nor `/dev/null`
    /// the destination: see the README's deliberate differences.
    @discardableResult
    public func migratePersistentStore(_ store: NSPersistentStore, to url: URL, options: [AnyHashable: Any]? = nil,
                                       type storeType: NSPersistentStore.StoreType) throws -> NSPersistentStore {
        try migratePersistentStore(store, to: url, options: options, withType: storeType.rawValue)
    }

    /// The same with the type as a name, in Apple's older spelling.
    @discardableResult
    public func migratePersistentStore(_ store: NSPersistentStore, to url: URL, options: [AnyHashable: Any]? = nil,
                                       withType storeType: String) throws -> NSPersistentStore {
        guard persistentStores.contains(where: { $0 === store }) else {
            throw CoreDataError.misuse("The store is not one of this coordinator's stores")
        }
        guard let sourceURL = store.url, !StoreFile.isAnonymous(sourceURL),
              [NSSQLiteStoreType, NSBinaryStoreType].contains(store.type) else {
            throw CoreDataError.make(NSPersistentStoreOperationError,
                                     "Only a SQLite or binary store with a file of its own can be migrated to another file",
                                     [NSAffectedStoresErrorKey: [store]])
        }
        try checkMigrationDestination(url, type: storeType)
        try NSMigrationManager(sourceModel: managedObjectModel, destinationModel: managedObjectModel)
            .migrateStore(from: sourceURL, sourceType: store.type, options: store.options, with: nil,
                          toDestinationURL: url, destinationType: storeType, destinationOptions: options)
        let migrated = try addPersistentStore(ofType: storeType, configurationName: store.configurationName, at: url, options: options)
        try remove(store)
        return migrated
    }

    /// Throws, touching nothing, unless `url` is a new place for a store of `storeType`.
    private func checkMigrationDestination(_ url: URL, type storeType: String) throws {
        let file = storeType == NSSQLiteStoreType ? try StoreFile.checkedForRewritingSQLite(url) : StoreFile(url)
        let isEmptiedDatabase = file.kind == .regularFile && storeType == NSSQLiteStoreType && (try? SQLiteStore.isEmptied(path: url.path)) == true
        guard file.kind == .nothing || isEmptiedDatabase else {
            throw CoreDataError.make(NSPersistentStoreOperationError,
                                     "\(url.path) is \(file.kind == .anonymous ? "/dev/null" : "not a new place for a store"); migratePersistentStore writes only a new store, and left it untouched",
                                     [NSURLErrorKey: url, NSFilePathErrorKey: url.path])
        }
    }

    /// Removes a store file this library created moments ago that did not become a store (a
    /// failed migration's destination), only when it is still a store file of `storeType`.
    static func removeCreatedStore(at url: URL, type storeType: String) {
        switch storeType {
        case NSSQLiteStoreType: SQLiteStore.removeCreatedStoreFile(at: url)
        case NSBinaryStoreType: try? BinaryStore.destroyStoreFile(at: url)
        default: break
        }
    }
}
