/// Names one model version for a staged migration, with the checksum it must have, so a stage
/// can never run against a model that changed since the stage was written.
open class NSManagedObjectModelReference: NSObject, @unchecked Sendable {
    /// The checksum the referred model must have (its `versionChecksum`).
    public let versionChecksum: String
    private let resolve: () -> NSManagedObjectModel?

    /// Refers to a model you already hold.
    public init(model: NSManagedObjectModel, versionChecksum: String) {
        self.versionChecksum = versionChecksum
        resolve = { model }
        super.init()
    }

    /// The model in the file or bundle at `fileURL` (`.mom`, `.momd`, `.xcdatamodel`, `.xcdatamodeld`).
    public init(fileURL: URL, versionChecksum: String) {
        self.versionChecksum = versionChecksum
        resolve = { NSManagedObjectModel(contentsOf: fileURL) }
        super.init()
    }

    /// The model version called `name` in `bundle` (the main bundle when nil): a version of a
    /// versioned model there, or a model file of that name.
    public init(name: String, in bundle: Bundle?, versionChecksum: String) {
        self.versionChecksum = versionChecksum
        resolve = {
            let urls = ModelBundleLocator.modelURLs(in: (bundle ?? .main).bundleURL)
            for url in urls where ["xcdatamodeld", "momd"].contains(url.pathExtension) {
                if let version = NSManagedObjectModel.versions(in: url)[name] { return version }
            }
            return urls.first { $0.deletingPathExtension().lastPathComponent == name }.flatMap(NSManagedObjectModel.init(contentsOf:))
        }
        super.init()
    }

    /// The model in `bundle` whose entity version hashes are `entityVersionHashes`.
    public init(entityVersionHashes: [AnyHashable: Any], inDatabaseBundle bundle: Bundle?, versionChecksum: String) {
        self.versionChecksum = versionChecksum
        let metadata: [String: Any] = [NSStoreModelVersionHashesKey: Dictionary(uniqueKeysWithValues: entityVersionHashes.compactMap { key, value in
            (key as? String).flatMap { name in (value as? Data).map { (name, $0) } }
        })]
        resolve = { NSManagedObjectModel.mergedModel(from: bundle.map { [$0] }, forStoreMetadata: metadata) }
        super.init()
    }

    /// The model referred to. Throws (134110) when it cannot be found or its checksum is not
    /// the one given, where Apple's framework raises.
    func resolvedModelChecked() throws -> NSManagedObjectModel {
        guard let model = resolve() else {
            throw CoreDataError.make(NSMigrationError, "The model with checksum \(versionChecksum) referred to by a migration stage cannot be found")
        }
        guard model.versionChecksum == versionChecksum else {
            throw CoreDataError.make(NSMigrationError, "A migration stage refers to a model with checksum \(versionChecksum), but the model found has \(model.versionChecksum)")
        }
        return model
    }

    /// The model referred to. A reference that cannot be resolved stops the program, as
    /// Apple's raises; the migration itself reports it as an error instead.
    open var resolvedModel: NSManagedObjectModel {
        do {
            return try resolvedModelChecked()
        } catch {
            preconditionFailure((error as NSError).localizedDescription)
        }
    }
}
