import Foundation
import Synchronization

/// The stores of a schema's models: a persistent container on the configured SQLite files,
/// migrated through a plan's stages when one is given.
///
/// For example:
/// ```swift
/// let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
/// let context = ModelContext(container)
/// ```
public final class ModelContainer: @unchecked Sendable {
    public let schema: Schema
    public let configurations: [ModelConfiguration]
    public let migrationPlan: (any SchemaMigrationPlan.Type)?
    /// The Core Data stack underneath, for code that mixes both APIs.
    public let persistentContainer: NSPersistentContainer
    private let main = Mutex<ModelContext?>(nil)

    public convenience init(for forTypes: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)? = nil, configurations: ModelConfiguration...) throws {
        try self.init(for: Schema(forTypes.isEmpty ? migrationPlan?.schemas.last?.models ?? [] : forTypes), migrationPlan: migrationPlan, configurations: configurations)
    }

    public convenience init(for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil, configurations: ModelConfiguration...) throws {
        try self.init(for: givenSchema, migrationPlan: migrationPlan, configurations: configurations)
    }

    public init(for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil, configurations: [ModelConfiguration]) throws {
        // The plan's models for the latest version are the very ones its stages end on.
        let givenSchema = migrationPlan.flatMap { plan in
            plan.schemas.last.map(MigrationPlanning.schema(for:)).flatMap { $0.managedObjectModel.versionChecksum == givenSchema.managedObjectModel.versionChecksum ? $0 : nil }
        } ?? givenSchema
        schema = givenSchema
        self.configurations = configurations.isEmpty ? [ModelConfiguration()] : configurations
        self.migrationPlan = migrationPlan
        let container = NSPersistentContainer(name: self.configurations[0].name, managedObjectModel: givenSchema.managedObjectModel)
        container.persistentStoreDescriptions = try self.configurations.map { configuration in
            if !configuration.isStoredInMemoryOnly {
                try FileManager.default.createDirectory(at: configuration.url.deletingLastPathComponent(), withIntermediateDirectories: true)
            }
            let description = configuration.storeDescription()
            if let migrationPlan {
                description.setOption(try MigrationPlanning.stagedMigrationManager(for: migrationPlan), forKey: NSPersistentStoreStagedMigrationManagerOptionKey)
            }
            return description
        }
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in if let error { loadError = error } }
        if let loadError { throw loadError }
        persistentContainer = container
    }

    /// A container over an open Core Data stack (a migration stage's).
    init(schema: Schema, persistentContainer: NSPersistentContainer) {
        self.schema = schema
        configurations = []
        migrationPlan = nil
        self.persistentContainer = persistentContainer
    }

    /// The context of the main actor; it saves by itself (`autosaveEnabled`).
    @MainActor public var mainContext: ModelContext {
        main.withLock { context in
            if let context { return context }
            let made = ModelContext(self, managedObjectContext: persistentContainer.viewContext)
            made.autosaveEnabled = true
            context = made
            return made
        }
    }

    /// Deletes every model of every entity from the stores.
    public func deleteAllData() {
        let context = persistentContainer.newBackgroundContext()
        context.performAndWait {
            for entity in schema.entities {
                let request = NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: entity.name))
                _ = try? context.execute(request)
            }
        }
    }
}
