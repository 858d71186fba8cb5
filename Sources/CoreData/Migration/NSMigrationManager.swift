/// Migrates a store of one model version into a new store of another, object by object, through
/// a mapping model whose entity mappings may compute values and name `NSEntityMigrationPolicy`
/// subclasses: Apple's custom migration.
///
/// The source store is opened read-only in a coordinator of its own and never changes; the
/// destination is written in another. Swap the result in with
/// `NSPersistentStoreCoordinator.replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:sourceOptions:type:)`.
///
/// For example:
/// ```swift
/// let manager = NSMigrationManager(sourceModel: version1, destinationModel: version2)
/// try manager.migrateStore(from: storeURL, sourceType: NSSQLiteStoreType, options: nil, with: mapping,
///                          toDestinationURL: newURL, destinationType: NSSQLiteStoreType, destinationOptions: nil)
/// ```
open class NSMigrationManager: NSObject {
    /// The model the source store was written with.
    public let sourceModel: NSManagedObjectModel
    /// The model the destination store is written with.
    public let destinationModel: NSManagedObjectModel
    /// The mapping model of the migration running or last run.
    open private(set) var mappingModel = NSMappingModel()
    /// Reads the source store; set up by each `migrateStore` call.
    open private(set) var sourceContext = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    /// Writes the destination store; set up by each `migrateStore` call.
    open private(set) var destinationContext = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    /// The entity mapping whose instances are being migrated; nil outside a migration.
    open internal(set) var currentEntityMapping: NSEntityMapping!
    /// Anything your policies want to share during a migration; the manager does not read it.
    open var userInfo: [AnyHashable: Any]?
    /// Accepted for source compatibility: every store type migrates through the same manager.
    open var usesStoreSpecificMigrationManager = true

    /// Readable from any thread while the migration runs, so guarded.
    let progress = Locked<Float>(0)
    /// Set by `cancelMigrationWithError(_:)`, from any thread.
    let cancellation = Locked<(any Error)?>(nil)
    var associations = MigrationAssociations()
    /// Source instances migrated (or destination instances linked) between saves of the
    /// destination context: what bounds the migration's memory.
    var batchSize = 500

    /// A manager for stores of `sourceModel` to become stores of `destinationModel`.
    public init(sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel) {
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
        super.init()
    }

    /// How far the running migration is, from 0 to 1: the three passes weigh the same, and
    /// inside a pass each entity mapping and each of its instances count in turn.
    open var migrationProgress: Float { progress.withLock { $0 } }

    /// Stops the running migration at its next instance: `migrateStore` then throws `error`
    /// and leaves no destination store behind.
    open func cancelMigrationWithError(_ error: any Error) {
        cancellation.withLock { $0 = error }
    }

    /// Migrates the store at `sourceURL` (written with `sourceModel`) into a store at
    /// `dURL` with `destinationModel`, running `mapping` (the inferred mapping when nil).
    ///
    /// Throws the error given to `cancelMigrationWithError(_:)` or thrown by a step of a
    /// policy, unchanged, as Apple's manager returns it; any other failure (a validation error,
    /// a store that will not open) as 134110 with the failure underneath. Either way a
    /// destination store the call created is removed. The source store is never written.
    open func migrateStore(from sourceURL: URL, sourceType: String, options sOptions: [AnyHashable: Any]? = nil,
                           with mapping: NSMappingModel?, toDestinationURL dURL: URL, destinationType dType: String,
                           destinationOptions dOptions: [AnyHashable: Any]? = nil) throws {
        progress.withLock { $0 = 0 }
        cancellation.withLock { $0 = nil }
        associations = MigrationAssociations()
        let destinationExisted = StoreFile(dURL).kind != .nothing
        let sourceCoordinator = NSPersistentStoreCoordinator(managedObjectModel: sourceModel)
        let destinationCoordinator = NSPersistentStoreCoordinator(managedObjectModel: destinationModel)
        do {
            mappingModel = try mapping ?? NSMappingModel.inferredMappingModel(forSourceModel: sourceModel, destinationModel: destinationModel)
            var readOnly = sOptions ?? [:]
            readOnly[NSReadOnlyPersistentStoreOption] = true
            try sourceCoordinator.addPersistentStore(ofType: sourceType, configurationName: nil, at: sourceURL, options: readOnly)
            try destinationCoordinator.addPersistentStore(ofType: dType, configurationName: nil, at: dURL, options: dOptions)
            sourceContext = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            sourceContext.persistentStoreCoordinator = sourceCoordinator
            destinationContext = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            destinationContext.persistentStoreCoordinator = destinationCoordinator
            try sourceContext.performAndWait {
                try destinationContext.performAndWait { try runPasses() }
            }
            currentEntityMapping = nil
            try Self.close(sourceCoordinator, destinationCoordinator)
        } catch {
            currentEntityMapping = nil
            try? Self.close(sourceCoordinator, destinationCoordinator)
            if !destinationExisted { NSPersistentStoreCoordinator.removeCreatedStore(at: dURL, type: dType) }
            if let cancelled = cancellation.withLock({ $0 }) { throw cancelled }
            if let failure = error as? PolicyFailure { throw failure.error }
            throw CoreDataError.make(NSMigrationError, "The migration from \(sourceURL.path) to \(dURL.path) failed",
                                     [NSUnderlyingErrorKey: error, NSURLErrorKey: sourceURL])
        }
        progress.withLock { $0 = 1 }
    }

    /// The typed form of `migrateStore(from:sourceType:options:with:toDestinationURL:destinationType:destinationOptions:)`.
    open func migrateStore(from sourceURL: URL, type sourceType: NSPersistentStore.StoreType, options sourceOptions: [AnyHashable: Any]? = nil,
                           mapping: NSMappingModel, to destinationURL: URL, type destinationType: NSPersistentStore.StoreType,
                           options destinationOptions: [AnyHashable: Any]? = nil) throws {
        try migrateStore(from: sourceURL, sourceType: sourceType.rawValue, options: sourceOptions, with: mapping,
                         toDestinationURL: destinationURL, destinationType: destinationType.rawValue, destinationOptions: destinationOptions)
    }

    // MARK: Entities and instances (in the class body so subclasses can override them)

    /// The source model's entity `mEntity` names, if any.
    open func sourceEntity(for mEntity: NSEntityMapping) -> NSEntityDescription? {
        mEntity.sourceEntityName.flatMap { sourceModel.entitiesByName[$0] }
    }

    /// The destination model's entity `mEntity` names, if any.
    open func destinationEntity(for mEntity: NSEntityMapping) -> NSEntityDescription? {
        mEntity.destinationEntityName.flatMap { destinationModel.entitiesByName[$0] }
    }

    /// Records that `destinationInstance` was made from `sourceInstance` under `entityMapping`;
    /// the second pass links the destination instances recorded here.
    open func associate(sourceInstance: NSManagedObject, withDestinationInstance destinationInstance: NSManagedObject,
                        for entityMapping: NSEntityMapping) {
        // A permanent ID now, so the association survives the batch saves.
        if destinationInstance.objectID.isTemporaryID {
            try? destinationContext.obtainPermanentIDs(for: [destinationInstance])
        }
        associations.associate(source: sourceInstance.objectID, destination: destinationInstance.objectID, mapping: entityMapping.name ?? "")
    }

    /// The destination instances the mapping made from `sourceInstances`; every one it made
    /// when nil.
    open func destinationInstances(forEntityMappingName mappingName: String, sourceInstances: [NSManagedObject]?) -> [NSManagedObject] {
        let ids = sourceInstances.map { $0.flatMap { associations.destinations(of: $0.objectID, mapping: mappingName) } }
            ?? associations.allDestinations(mapping: mappingName)
        return ids.map(destinationContext.object(with:))
    }

    /// The source instances the mapping made `destinationInstances` from; every one it
    /// migrated when nil.
    open func sourceInstances(forEntityMappingName mappingName: String, destinationInstances: [NSManagedObject]?) -> [NSManagedObject] {
        let ids = destinationInstances.map { $0.flatMap { associations.sources(of: $0.objectID, mapping: mappingName) } }
            ?? associations.allSources(mapping: mappingName)
        return ids.map(sourceContext.object(with:))
    }

    /// An error a policy's step threw, carried out of the passes to be thrown as it is.
    struct PolicyFailure: Error {
        let error: any Error
    }

    /// Closes both stores, so their files can be replaced or renamed once the call returns.
    private static func close(_ coordinators: NSPersistentStoreCoordinator...) throws {
        for coordinator in coordinators {
            for store in coordinator.persistentStores { try coordinator.remove(store) }
        }
    }
}
