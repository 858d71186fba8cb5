/// Changes attributes of every matching row directly in the store, without loading objects.
///
/// Contexts do not see the change until it is merged, e.g. with
/// `NSManagedObjectContext.mergeChanges(fromRemoteContextSave:into:)` using the object IDs.
///
/// For example:
/// ```swift
/// let request = NSBatchUpdateRequest(entityName: "Venue")
/// request.propertiesToUpdate = ["favorite": true]
/// request.resultType = .updatedObjectsCountResultType
/// let result = try context.execute(request) as? NSBatchUpdateResult
/// ```
open class NSBatchUpdateRequest: NSPersistentStoreRequest {
    /// The entity whose rows are updated.
    public let entityName: String
    /// Which rows to update; nil updates every row of the entity.
    public var predicate: NSPredicate?
    /// Attribute names (or descriptions) to new values: constants or `NSExpression`s.
    public var propertiesToUpdate: [AnyHashable: Any]?
    /// Whether the result carries a status, the updated object IDs or their count.
    public var resultType: NSBatchUpdateRequestResultType = .statusOnlyResultType
    /// Whether rows of the entity's subentities are updated too.
    public var includesSubentities = true

    /// An update of rows of the entity named `entityName`; set `propertiesToUpdate` before executing it.
    public init(entityName: String) {
        self.entityName = entityName
    }

    /// An update of rows of `entity`.
    public convenience init(entity: NSEntityDescription) {
        self.init(entityName: entity.name ?? "")
    }

    /// Always `.batchUpdateRequestType`.
    open override var requestType: NSPersistentStoreRequestType { .batchUpdateRequestType }
}

/// Deletes every row a fetch request matches (or the given objects) directly in the store.
open class NSBatchDeleteRequest: NSPersistentStoreRequest {
    /// The request whose matching rows are deleted; for the `objectIDs:` form, a plain request for their entity.
    public let fetchRequest: NSFetchRequest<NSFetchRequestResult>
    let objectIDs: [NSManagedObjectID]?
    /// Whether the result carries a status, the deleted object IDs or their count.
    public var resultType: NSBatchDeleteRequestResultType = .resultTypeStatusOnly

    /// Deletes what `fetchRequest` matches; delete rules are applied a wave at a time.
    public init(fetchRequest: NSFetchRequest<NSFetchRequestResult>) {
        self.fetchRequest = fetchRequest
        self.objectIDs = nil
    }

    /// Deletes exactly these objects, without a fetch.
    public init(objectIDs: [NSManagedObjectID]) {
        self.fetchRequest = NSFetchRequest<NSFetchRequestResult>(entityName: objectIDs.first?.entity.name ?? "")
        self.objectIDs = objectIDs
    }

    /// Always `.batchDeleteRequestType`.
    open override var requestType: NSPersistentStoreRequestType { .batchDeleteRequestType }
}

/// Inserts many rows directly in the store from dictionaries (or a handler filling them).
open class NSBatchInsertRequest: NSPersistentStoreRequest {
    /// The entity the new rows belong to.
    public let entityName: String
    /// One dictionary of attribute values by name per row.
    public var objectsToInsert: [[String: Any]]?
    /// Fills one row per call; returning true ends the insert and discards that call's dictionary.
    public var dictionaryHandler: ((NSMutableDictionary) -> Bool)?
    /// Fills one scratch object per call; returning true ends the insert and discards that call's object.
    public var managedObjectHandler: ((NSManagedObject) -> Bool)?
    /// Whether the result carries a status, the written object IDs or their count.
    public var resultType: NSBatchInsertRequestResultType = .statusOnly

    /// Inserts `dictionaries` as rows of the entity named `entityName`.
    public init(entityName: String, objects dictionaries: [[String: Any]]) {
        self.entityName = entityName
        self.objectsToInsert = dictionaries
    }

    /// Calls `handler` with an empty dictionary to fill until it returns true (done).
    public init(entityName: String, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool) {
        self.entityName = entityName
        self.dictionaryHandler = handler
    }

    /// Calls `handler` with a fresh object to fill until it returns true (done).
    public init(entityName: String, managedObjectHandler handler: @escaping (NSManagedObject) -> Bool) {
        self.entityName = entityName
        self.managedObjectHandler = handler
    }

    /// The entity given to an `entity:` initialiser; nil for the entity-name forms.
    public private(set) var entity: NSEntityDescription?

    /// Inserts `dictionaries` as rows of `entity`.
    public convenience init(entity: NSEntityDescription, objects dictionaries: [[String: Any]]) {
        self.init(entityName: entity.name ?? "", objects: dictionaries)
        self.entity = entity
    }

    /// Inserts rows of `entity` that `handler` fills one call at a time.
    public convenience init(entity: NSEntityDescription, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool) {
        self.init(entityName: entity.name ?? "", dictionaryHandler: handler)
        self.entity = entity
    }

    /// Inserts rows of `entity` from scratch objects `handler` fills one call at a time.
    public convenience init(entity: NSEntityDescription, managedObjectHandler handler: @escaping (NSManagedObject) -> Bool) {
        self.init(entityName: entity.name ?? "", managedObjectHandler: handler)
        self.entity = entity
    }

    /// Always `.batchInsertRequestType`.
    open override var requestType: NSPersistentStoreRequestType { .batchInsertRequestType }
}
