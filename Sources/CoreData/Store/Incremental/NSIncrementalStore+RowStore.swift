/// The coordinator's row-level questions, answered through the public API an
/// `NSIncrementalStore` subclass implements.
extension NSIncrementalStore: RowStore {
    func load(model: NSManagedObjectModel) throws {
        try loadMetadata()
        guard let identifier = metadata?[NSStoreUUIDKey] as? String, !identifier.isEmpty,
              metadata?[NSStoreTypeKey] is String else {
            throw CoreDataError.make(NSPersistentStoreOpenError,
                "\(Swift.type(of: self)).loadMetadata() must set metadata with NSStoreTypeKey and NSStoreUUIDKey strings")
        }
        self.identifier = identifier
    }

    func fetchRows(_ fetch: StoreFetch, for context: NSManagedObjectContext) throws -> [RowSnapshot] {
        let ids = try fetchObjectIDs(fetch, for: context)
        let rows = try rows(for: ids, for: context)
        return ids.compactMap { rows[$0] }
    }

    func fetchObjectIDList(_ fetch: StoreFetch, for context: NSManagedObjectContext) throws -> ObjectIDList {
        let result = try execute(request(for: fetch, resultType: .managedObjectIDResultType), with: context)
        return ObjectIDList(try Self.objectIDs(in: result, answering: "a fetch of IDs"))
    }

    func count(_ fetch: StoreFetch, for context: NSManagedObjectContext) throws -> Int {
        let result = try execute(request(for: fetch, resultType: .countResultType), with: context)
        if let count = (result as? [Any])?.first.flatMap(Self.integer) ?? Self.integer(result) { return count }
        throw Self.unexpected(result, answering: "a count (one NSNumber in an array)")
    }

    func rows(for ids: [NSManagedObjectID], for context: NSManagedObjectContext) throws -> [NSManagedObjectID: RowSnapshot] {
        var rows: [NSManagedObjectID: RowSnapshot] = [:]
        for id in ids {
            let node: NSIncrementalStoreNode
            do {
                node = try newValuesForObject(with: id, with: context)
            } catch let error as NSError where error.code == NSManagedObjectReferentialIntegrityError {
                continue
            }
            rows[id] = try row(from: node, of: id)
        }
        return rows
    }

    func relatedObjectIDs(_ relationship: NSRelationshipDescription, of source: NSManagedObjectID,
                          for context: NSManagedObjectContext) throws -> [NSManagedObjectID] {
        let result = try newValue(forRelationship: relationship, forObjectWith: source, with: context)
        if result is NSNull { return [] }
        if let single = result as? NSManagedObjectID { return [single] }
        return try Self.objectIDs(in: result, answering: "the members of \(relationship.name)")
    }

    func permanentIDs(for objects: [NSManagedObject]) throws -> [NSManagedObjectID] {
        let ids = try obtainPermanentIDs(for: objects)
        guard ids.count == objects.count, !ids.contains(where: \.isTemporaryID) else {
            throw CoreDataError.make(NSPersistentStoreOperationError,
                "\(Swift.type(of: self)).obtainPermanentIDs(for:) returned \(ids.count) IDs for \(objects.count) objects, or a temporary one")
        }
        return ids
    }

    /// Hands the store the saving context's objects; the store checks versions itself.
    func apply(_ changes: StoreChanges, from context: NSManagedObjectContext) throws {
        let objects = changes.objects(in: context)
        let request = NSSaveChangesRequest(inserted: objects.inserted, updated: objects.updated, deleted: objects.deleted, locked: nil)
        _ = try execute(request, with: context)
    }

    func fetchDictionaries(_ request: DictionaryFetch, for context: NSManagedObjectContext) throws -> [NSDictionary] {
        let result = try execute(request.request, with: context)
        if let dictionaries = result as? [NSDictionary] { return dictionaries }
        if let dictionaries = result as? [[String: Any]] { return dictionaries.map { NSDictionary(dictionary: $0) } }
        throw Self.unexpected(result, answering: "a dictionary fetch ([NSDictionary])")
    }

    func executeBatch(_ request: NSPersistentStoreRequest, for context: NSManagedObjectContext) throws -> NSPersistentStoreResult {
        let result = try execute(request, with: context)
        guard let storeResult = result as? NSPersistentStoreResult else {
            throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError,
                "\(Swift.type(of: self)) does not run \(Swift.type(of: request)) (execute(_:with:) returned \(Swift.type(of: result)))")
        }
        return storeResult
    }

    func close() {}

    // MARK: Translating

    private func request(for fetch: StoreFetch, resultType: NSFetchRequestResultType) -> NSFetchRequest<NSFetchRequestResult> {
        let request = NSFetchRequest<NSFetchRequestResult>()
        request.entity = fetch.entity
        request.entityName = fetch.entity.name
        request.predicate = fetch.predicate
        request.sortDescriptors = fetch.sortDescriptors
        request.fetchLimit = fetch.limit
        request.fetchOffset = fetch.offset
        request.includesSubentities = fetch.includesSubentities
        request.resultType = resultType
        return request
    }

    /// A node's values as a row: attributes normalised as a context stores them, to-one
    /// destinations as IDs; to-many relationships are read when touched.
    private func row(from node: NSIncrementalStoreNode, of id: NSManagedObjectID) throws -> RowSnapshot {
        var values: [String: Any] = [:]
        for property in id.entity.properties {
            guard let raw = node.value(for: property), !(raw is NSNull) else { continue }
            switch property {
            case let attribute as NSAttributeDescription:
                values[attribute.name] = ManagedValueNormalizer.normalize(raw, for: attribute)
            case let relationship as NSRelationshipDescription where !relationship.isToMany:
                guard let destination = (raw as? NSManagedObjectID) ?? (raw as? NSManagedObject)?.objectID else {
                    throw Self.unexpected(raw, answering: "the to-one relationship \(relationship.name) (an NSManagedObjectID)")
                }
                values[relationship.name] = destination
            default:
                continue
            }
        }
        return RowSnapshot(objectID: id, version: Int64(truncatingIfNeeded: node.version), values: values)
    }

    private static func objectIDs(in result: Any, answering question: String) throws -> [NSManagedObjectID] {
        guard let elements = ToManyValue.elements(of: result) else { throw unexpected(result, answering: question) }
        return try elements.map { element in
            if let id = element as? NSManagedObjectID { return id }
            if let object = element as? NSManagedObject { return object.objectID }
            throw unexpected(element, answering: question)
        }
    }

    private static func integer(_ value: Any) -> Int? {
        (value as? Int) ?? (value as? NSNumber)?.intValue
    }

    private static func unexpected(_ value: Any, answering question: String) -> NSError {
        CoreDataError.make(NSPersistentStoreOperationError, "An incremental store answered \(question) with \(Swift.type(of: value))")
    }
}
