/// How to turn a store of one model version into a store of another: one entity mapping per
/// source or destination entity.
///
/// Lightweight migration uses `inferredMappingModel(forSourceModel:destinationModel:)`; a
/// custom one is built in code (Xcode's `.xcmappingmodel` files are not read: see the README).
open class NSMappingModel: NSObject, @unchecked Sendable {
    /// One mapping per source or destination entity, run in this order.
    open var entityMappings: [NSEntityMapping]! = []

    /// An empty mapping model; fill `entityMappings`.
    public override init() { super.init() }

    /// The entity mappings by name; the first wins if two share one.
    open var entityMappingsByName: [String: NSEntityMapping] {
        Dictionary(entityMappings.compactMap { mapping in mapping.name.map { ($0, mapping) } }, uniquingKeysWith: { first, _ in first })
    }

    /// A mapping model found in `bundles` for the two models. Compiled `.cdm` mapping models are
    /// Xcode's own format, so none is ever found; the initialiser exists so Apple's
    /// `NSMappingModel(from: nil, forSourceModel:destinationModel:) ?? inferred` pattern compiles
    /// and falls through to inference.
    public init?(from bundles: [Bundle]?, forSourceModel sourceModel: NSManagedObjectModel?, destinationModel: NSManagedObjectModel?) {
        return nil
    }

    /// The mapping lightweight migration runs: entities and properties matched by name or by
    /// the destination's `renamingIdentifier`. Throws 134190 when a change cannot be inferred
    /// (an attribute type that cannot be converted, a new mandatory attribute without a default).
    open class func inferredMappingModel(forSourceModel sourceModel: NSManagedObjectModel,
                                         destinationModel: NSManagedObjectModel) throws -> NSMappingModel {
        try MappingInference(source: sourceModel, destination: destinationModel).mappingModel()
    }
}
