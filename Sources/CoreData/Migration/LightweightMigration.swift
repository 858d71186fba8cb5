/// What a store opening with another model's rows migrates from and with, found as Apple's
/// lightweight migration finds them and failing with its errors. Written once for the SQLite
/// and PostgreSQL stores; `store` names the store in the messages ("the store at …").
enum LightweightMigration {
    /// The model the store was written with (`NSManagedObjectModel.sourceModel`), or 134130.
    static func sourceModel(of store: String, metadata: [String: Any], destination: NSManagedObjectModel,
                            archived: () -> NSManagedObjectModel?, userInfo: [String: Any]) throws -> NSManagedObjectModel {
        guard let sourceModel = destination.sourceModel(forStoreMetadata: metadata, archived: archived) else {
            throw missingSourceModel(of: store, userInfo: userInfo)
        }
        return sourceModel
    }

    /// 134130: no model with the store's hashes was found.
    static func missingSourceModel(of store: String, userInfo: [String: Any]) -> NSError {
        CoreDataError.make(NSMigrationMissingSourceModelError,
            "Can't find the model \(store) was written with (not among the model's versions, the main bundle or the store's own copy)",
            userInfo)
    }

    /// A mapping model in the main bundle from `source` to `destination`, or one inferred when
    /// `infers` (with the store's `options`: `NSInferAttributeTypeConversionsOption`); 134140
    /// when there is neither (the inference error, 134190, underneath), and 134100 when the
    /// destination continues none of the store's entities.
    static func mapping(of store: String, from source: NSManagedObjectModel, to destination: NSManagedObjectModel,
                        infers: Bool, options: [AnyHashable: Any]?, userInfo: [String: Any]) throws -> NSMappingModel {
        let mapping: NSMappingModel
        if let found = NSMappingModel(from: nil, forSourceModel: source, destinationModel: destination) {
            mapping = found
        } else {
            guard infers else {
                throw CoreDataError.make(NSMigrationMissingMappingModelError, "No mapping model for \(store), and inference is off", userInfo)
            }
            do {
                mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination, options: options)
            } catch {
                throw CoreDataError.make(NSMigrationMissingMappingModelError, "Can't find or infer a mapping model for \(store)",
                                         userInfo.merging([NSUnderlyingErrorKey: error]) { $1 })
            }
        }
        // A model that continues none of the store's entities is not a new version of its
        // model but another program's: migrating would drop every row.
        guard mapping.entityMappings.contains(where: { $0.sourceEntityName != nil && $0.destinationEntityName != nil }) else {
            throw CoreDataError.make(NSPersistentStoreIncompatibleVersionHashError,
                "The model used to open \(store) shares no entity with the one that wrote it; the store is left as it is", userInfo)
        }
        return mapping
    }
}
