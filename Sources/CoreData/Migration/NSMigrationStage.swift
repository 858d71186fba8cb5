/// One step of a staged migration (`NSStagedMigrationManager`).
open class NSMigrationStage: NSObject, @unchecked Sendable {
    /// A name for the stage, in errors and logs.
    open var label: String?

    public override init() { super.init() }
}

/// Model versions, given by checksum in order, between which each step is a lightweight
/// migration: a store at any of them is migrated through the later ones.
open class NSLightweightMigrationStage: NSMigrationStage, @unchecked Sendable {
    public let versionChecksums: [String]

    public init(_ versionChecksums: [String]) {
        self.versionChecksums = versionChecksums
        super.init()
    }
}

/// A step between two model versions around which the program runs its own code: the
/// `willMigrateHandler` sees the store at `currentModel`, the `didMigrateHandler` at
/// `nextModel`, both through the manager's `container`.
open class NSCustomMigrationStage: NSMigrationStage, @unchecked Sendable {
    public let currentModel: NSManagedObjectModelReference
    public let nextModel: NSManagedObjectModelReference
    open var willMigrateHandler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?
    open var didMigrateHandler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?

    public init(migratingFrom currentModel: NSManagedObjectModelReference, to nextModel: NSManagedObjectModelReference) {
        self.currentModel = currentModel
        self.nextModel = nextModel
        super.init()
    }
}
