/// Migrates a store through a list of stages when it opens (set it on the store description
/// under `NSPersistentStoreStagedMigrationManagerOptionKey`): lightweight steps between
/// model versions, and custom stages whose handlers run the program's own code on the store
/// before and after their step.
///
/// Each step is one transaction, so a failure or a kill leaves the store at the last version
/// it completed, a whole store of that version, and the next open carries on from there.
open class NSStagedMigrationManager: NSObject, @unchecked Sendable {
    /// The stages, in the order a store passes through them.
    public let stages: [NSMigrationStage]
    /// During a custom stage's handler, a container opened on the store at the stage's
    /// current (will) or next (did) model; nil otherwise.
    public private(set) var container: NSPersistentContainer?

    /// A manager that runs `stages` in order.
    public init(_ stages: [NSMigrationStage]) {
        self.stages = stages
        super.init()
    }

    /// One lightweight step of the store from a model to the next, run by the store.
    typealias Step = (_ source: NSManagedObjectModel, _ destination: NSManagedObjectModel) throws -> Void

    /// Runs the stages that apply to a store written with the model `metadata` records, then
    /// a last lightweight step to `destination` if the stages end short of it.
    func migrate(storeAt url: URL, metadata: [String: Any], to destination: NSManagedObjectModel,
                 archived: () -> NSManagedObjectModel?, step: Step) throws {
        let known = try knownModels(destination: destination)
        func model(_ checksum: String) -> NSManagedObjectModel? { known.first { $0.versionChecksum == checksum } }
        guard var current = known.first(where: { $0.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) })
                ?? destination.sourceModel(forStoreMetadata: metadata, archived: archived) else {
            throw CoreDataError.make(NSMigrationMissingSourceModelError,
                "Can't find the model the store at \(url.path) was written with among the migration stages' models", [NSURLErrorKey: url])
        }
        for stage in stages {
            switch stage {
            case let custom as NSCustomMigrationStage:
                guard custom.currentModel.versionChecksum == current.versionChecksum else { continue }
                let next = try custom.nextModel.resolvedModelChecked()
                if let handler = custom.willMigrateHandler { try run(handler, of: custom, on: url, at: current) }
                try step(current, next)
                current = next
                if let handler = custom.didMigrateHandler { try run(handler, of: custom, on: url, at: next) }
            case let lightweight as NSLightweightMigrationStage:
                guard let start = lightweight.versionChecksums.firstIndex(of: current.versionChecksum) else { continue }
                for checksum in lightweight.versionChecksums[(start + 1)...] {
                    guard let next = model(checksum) else {
                        throw CoreDataError.make(NSMigrationMissingSourceModelError,
                            "The lightweight stage \(lightweight.label ?? "") names a model with checksum \(checksum) that is not among the model's versions", [NSURLErrorKey: url])
                    }
                    try step(current, next)
                    current = next
                }
            default:
                throw CoreDataError.make(NSMigrationError, "Unknown kind of migration stage: \(type(of: stage))")
            }
        }
        if current.versionChecksum != destination.versionChecksum { try step(current, destination) }
    }

    /// The models the stages can name: their custom stages' references, every version of
    /// the destination's model bundle, the main bundle's models, and the destination.
    private func knownModels(destination: NSManagedObjectModel) throws -> [NSManagedObjectModel] {
        var models: [NSManagedObjectModel] = [destination]
        for case let custom as NSCustomMigrationStage in stages {
            models += [try custom.currentModel.resolvedModelChecked(), try custom.nextModel.resolvedModelChecked()]
        }
        if let bundle = destination.versionBundleURL { models += NSManagedObjectModel.modelVersions(at: bundle) }
        models += ModelBundleLocator.modelURLs(in: Bundle.main.bundleURL).flatMap(NSManagedObjectModel.modelVersions(at:))
        return models
    }

    /// Runs a custom stage's handler with `container` opened on the store at `model`; an
    /// error it throws ends the migration (134110, the handler's error underneath).
    private func run(_ handler: (NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void,
                     of stage: NSCustomMigrationStage, on url: URL, at model: NSManagedObjectModel) throws {
        let container = NSPersistentContainer(name: "StagedMigration", managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: url)
        description.shouldMigrateStoreAutomatically = false
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        self.container = container
        defer {
            self.container = nil
            for store in container.persistentStoreCoordinator.persistentStores {
                try? container.persistentStoreCoordinator.remove(store)
            }
        }
        do {
            try handler(self, stage)
        } catch {
            throw CoreDataError.make(NSMigrationError, "The migration stage \(stage.label ?? "") failed in its handler",
                                     [NSURLErrorKey: url, NSUnderlyingErrorKey: error])
        }
    }
}
