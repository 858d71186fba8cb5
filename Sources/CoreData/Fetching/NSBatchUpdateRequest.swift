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
    public let entityName: String
    public var predicate: NSPredicate?
    /// Attribute names (or descriptions) to new values: constants or `NSExpression`s.
    public var propertiesToUpdate: [AnyHashable: Any]?
    public var resultType: NSBatchUpdateRequestResultType = .statusOnlyResultType
    public var includesSubentities = true

    public init(entityName: String) {
        self.entityName = entityName
    }

    public convenience init(entity: NSEntityDescription) {
        self.init(entityName: entity.name ?? "")
    }

    open override var requestType: NSPersistentStoreRequestType { .batchUpdateRequestType }
}

/// Deletes every row a fetch request matches (or the given objects) directly in the store.
open class NSBatchDeleteRequest: NSPersistentStoreRequest {
    public let fetchRequest: NSFetchRequest<NSFetchRequestResult>
    let objectIDs: [NSManagedObjectID]?
    public var resultType: NSBatchDeleteRequestResultType = .resultTypeStatusOnly

    public init(fetchRequest: NSFetchRequest<NSFetchRequestResult>) {
        self.fetchRequest = fetchRequest
        self.objectIDs = nil
    }

    public init(objectIDs: [NSManagedObjectID]) {
        self.fetchRequest = NSFetchRequest<NSFetchRequestResult>(entityName: objectIDs.first?.entity.name ?? "")
        self.objectIDs = objectIDs
    }

    open override var requestType: NSPersistentStoreRequestType { .batchDeleteRequestType }
}

/// Inserts many rows directly in the store from dictionaries (or a handler filling them).
open class NSBatchInsertRequest: NSPersistentStoreRequest {
    public let entityName: String
    public var objectsToInsert: [[String: Any]]?
    public var dictionaryHandler: ((NSMutableDictionary) -> Bool)?
    public var managedObjectHandler: ((NSManagedObject) -> Bool)?
    public var resultType: NSBatchInsertRequestResultType = .statusOnly

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

    public convenience init(entity: NSEntityDescription, objects dictionaries: [[String: Any]]) {
        self.init(entityName: entity.name ?? "", objects: dictionaries)
        self.entity = entity
    }

    public convenience init(entity: NSEntityDescription, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool) {
        self.init(entityName: entity.name ?? "", dictionaryHandler: handler)
        self.entity = entity
    }

    public convenience init(entity: NSEntityDescription, managedObjectHandler handler: @escaping (NSManagedObject) -> Bool) {
        self.init(entityName: entity.name ?? "", managedObjectHandler: handler)
        self.entity = entity
    }

    open override var requestType: NSPersistentStoreRequestType { .batchInsertRequestType }
}
