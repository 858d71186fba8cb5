/// One step of a staged migration (`NSStagedMigrationManager`).
open class NSMigrationStage: NSObject, @unchecked Sendable {
    /// A name for the stage, in errors and logs.
    open var label: String?

    /// A stage with no label.
    public override init() { super.init() }
}

/// Model versions, given by checksum in order, between which each step is a lightweight
/// migration: a store at any of them is migrated through the later ones.
open class NSLightweightMigrationStage: NSMigrationStage, @unchecked Sendable {
    /// The checksums of the model versions, oldest first.
    public let versionChecksums: [String]

    /// A stage through the versions whose `versionChecksum`s are given, oldest first.
    public init(_ versionChecksums: [String]) {
        self.versionChecksums = versionChecksums
        super.init()
    }
}

/// A step between two model versions around which the program runs its own code: the
/// `willMigrateHandler` sees the store at `currentModel`, the `didMigrateHandler` at
/// `nextModel`, both through the manager's `container`.
open class NSCustomMigrationStage: NSMigrationStage, @unchecked Sendable {
    /// The version the store is at before this stage.
    public let currentModel: NSManagedObjectModelReference
    /// The version the store is at after this stage.
    public let nextModel: NSManagedObjectModelReference
    /// Runs before the step, with `manager.container` open on the store at `currentModel`.
    open var willMigrateHandler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?
    /// Runs after the step, with `manager.container` open on the store at `nextModel`.
    open var didMigrateHandler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?

    /// A stage from `currentModel` to `nextModel`; the step between them is lightweight.
    public init(migratingFrom currentModel: NSManagedObjectModelReference, to nextModel: NSManagedObjectModelReference) {
        self.currentModel = currentModel
        self.nextModel = nextModel
        super.init()
    }
}
