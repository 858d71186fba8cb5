/// How to turn a store of one model version into a store of another: one entity mapping per
/// source or destination entity.
///
/// Lightweight migration uses `inferredMappingModel(forSourceModel:destinationModel:)`; a
/// custom one is built in code (Xcode's `.xcmappingmodel` and `.cdm` files are not read: see
/// the DeliberateDifferences article).
open class NSMappingModel: NSObject, @unchecked Sendable {
    /// One mapping per source or destination entity, run in this order.
    open var entityMappings: [NSEntityMapping]! = []

    /// An empty mapping model; fill `entityMappings`.
    public override init() { super.init() }

    /// The entity mappings by name; the first wins if two share one.
    open var entityMappingsByName: [String: NSEntityMapping] {
        Dictionary(entityMappings.compactMap { mapping in mapping.name.map { ($0, mapping) } }, uniquingKeysWith: { first, _ in first })
    }

    /// The mapping model in the compiled file at `url`. Xcode's `.cdm` files are keyed archives
    /// of Apple's mapping classes, which this package does not read, so this answers nil; it
    /// exists so that Apple's code compiles and falls back to inference.
    public init?(contentsOf url: URL?) {
        return nil
    }

    /// A mapping model found in `bundles` for the two models. Compiled `.cdm` mapping models are
    /// Xcode's own format, so none is ever found; the initialiser exists so Apple's
    /// `NSMappingModel(from: nil, forSourceModel:destinationModel:) ?? inferred` pattern compiles
    /// and falls through to inference.
    public init?(from bundles: [Bundle]?, forSourceModel sourceModel: NSManagedObjectModel?, destinationModel: NSManagedObjectModel?) {
        return nil
    }

    /// The mapping lightweight migration runs: entities and properties matched by name or by
    /// the destination's `renamingIdentifier`. Throws 134190 when a change cannot be inferred:
    /// an attribute whose type changes, as on Apple platforms. A new mandatory attribute
    /// without a default value is inferred; the migration fails only if a row has no value.
    open class func inferredMappingModel(forSourceModel sourceModel: NSManagedObjectModel,
                                         destinationModel: NSManagedObjectModel) throws -> NSMappingModel {
        try inferredMappingModel(forSourceModel: sourceModel, destinationModel: destinationModel, options: nil)
    }

    /// The same, with our options: `NSInferAttributeTypeConversionsOption` set to true also
    /// infers the attribute type changes whose values convert (beyond Apple).
    open class func inferredMappingModel(forSourceModel sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel,
                                         options: [AnyHashable: Any]?) throws -> NSMappingModel {
        try MappingInference(source: sourceModel, destination: destinationModel,
                             convertsAttributeTypes: StoreOptions.flag(NSInferAttributeTypeConversionsOption, in: options ?? [:])).mappingModel()
    }
}
