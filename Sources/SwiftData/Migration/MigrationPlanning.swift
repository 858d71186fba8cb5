import Synchronization

/// A migration plan as Core Data's staged migration manager: one custom stage per plan stage,
/// between the versions' models, so the manager knows every model by its checksum.
enum MigrationPlanning {
    /// One schema per versioned schema type: the same model instance every time, so a store's
    /// entities and a stage's models agree.
    private static let schemas = Mutex<[ObjectIdentifier: Schema]>([:])

    static func schema(for version: any VersionedSchema.Type) -> Schema {
        schemas.withLock { known in
            if let schema = known[ObjectIdentifier(version)] { return schema }
            let schema = Schema(versionedSchema: version)
            known[ObjectIdentifier(version)] = schema
            return schema
        }
    }

    static func stagedMigrationManager(for plan: any SchemaMigrationPlan.Type) throws -> NSStagedMigrationManager {
        NSStagedMigrationManager(plan.stages.map(stage))
    }

    private static func stage(_ stage: MigrationStage) -> NSMigrationStage {
        switch stage {
        case .lightweight(let from, let to):
            return customStage(from: from, to: to)
        case .custom(let from, let to, let willMigrate, let didMigrate):
            let custom = customStage(from: from, to: to)
            if let willMigrate {
                custom.willMigrateHandler = { manager, _ in try run(willMigrate, on: manager, version: from) }
            }
            if let didMigrate {
                custom.didMigrateHandler = { manager, _ in try run(didMigrate, on: manager, version: to) }
            }
            return custom
        }
    }

    private static func customStage(from: any VersionedSchema.Type, to: any VersionedSchema.Type) -> NSCustomMigrationStage {
        let source = schema(for: from).managedObjectModel
        let destination = schema(for: to).managedObjectModel
        let stage = NSCustomMigrationStage(
            migratingFrom: NSManagedObjectModelReference(model: source, versionChecksum: source.versionChecksum),
            to: NSManagedObjectModelReference(model: destination, versionChecksum: destination.versionChecksum)
        )
        stage.label = "\(from.versionIdentifier) → \(to.versionIdentifier)"
        return stage
    }

    /// A handler's context: the manager's container opened on the store at `version`, saved
    /// after the handler returns.
    private static func run(_ handler: (ModelContext) throws -> Void, on manager: NSStagedMigrationManager, version: any VersionedSchema.Type) throws {
        guard let container = manager.container else { return }
        let context = ModelContext(ModelContainer(schema: schema(for: version), persistentContainer: container))
        try handler(context)
        if context.hasChanges { try context.save() }
    }
}
