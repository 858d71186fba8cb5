/// Batch requests: work done by the store in one transaction, without loading objects. Their
/// effects reach contexts (and controllers) through `mergeChanges(fromRemoteContextSave:into:)`.
extension NSManagedObjectContext {
    /// Runs a batch update, delete or insert request or a persistent history request and returns
    /// its result, or starts an asynchronous fetch and returns its `NSAsynchronousFetchResult` at once.
    public func execute(_ request: NSPersistentStoreRequest) throws -> NSPersistentStoreResult {
        if let asynchronous = request as? AsynchronousFetchStarting { return try asynchronous.start(in: self) }
        return try performAndWait {
            guard let coordinator = persistentStoreCoordinator else { throw noCoordinator() }
            if let history = request as? NSPersistentHistoryChangeRequest { return try executeHistoryRequest(history, coordinator: coordinator) }
            // An empty list of IDs to delete names no entity; any store answers it.
            let entity: NSEntityDescription?
            switch request {
            case let update as NSBatchUpdateRequest: entity = try self.entity(named: update.entityName)
            case let delete as NSBatchDeleteRequest: entity = try delete.objectIDs.map { $0.first?.entity } ?? storeFetch(for: delete.fetchRequest).entity
            case let insert as NSBatchInsertRequest: entity = try self.entity(named: insert.entityName)
            default:
                throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "execute(_:) does not run \(type(of: request)); use fetch(_:) for fetch requests")
            }
            // The rows changed in the store without passing through the row cache.
            defer { coordinator.rowCache.removeAll() }
            let store = try coordinator.store(for: entity)
            if let rowLevel = store.rowLevelBatches { return try executeRowLevelBatch(request, on: rowLevel) }
            return try store.executeBatch(request, for: self)
        }
    }

    /// Runs a batch request on a store that works row by row (the built-in stores).
    func executeRowLevelBatch(_ request: NSPersistentStoreRequest, on store: some BuiltInStore) throws -> NSPersistentStoreResult {
        switch request {
        case let update as NSBatchUpdateRequest: return try executeBatchUpdate(update, on: store)
        case let delete as NSBatchDeleteRequest: return try executeBatchDelete(delete, on: store)
        case let insert as NSBatchInsertRequest: return try executeBatchInsert(insert, on: store)
        default:
            throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError, "The store does not run \(type(of: request))")
        }
    }

    private func entity(named name: String) throws -> NSEntityDescription {
        guard let coordinator = persistentStoreCoordinator else { throw noCoordinator() }
        guard let entity = coordinator.managedObjectModel.entitiesByName[name] else {
            throw CoreDataError.misuse("The model has no entity named '\(name)'")
        }
        return entity
    }

    private func executeBatchUpdate(_ request: NSBatchUpdateRequest, on store: some BuiltInStore) throws -> NSBatchUpdateResult {
        let entity = try entity(named: request.entityName)
        let assignments = try (request.propertiesToUpdate ?? [:]).map { key, value -> BatchAssignment in
            let name = (key as? String) ?? (key as? NSPropertyDescription)?.name ?? "\(key)"
            guard let attribute = entity.attributesByName[name] else {
                throw CoreDataError.misuse("Batch update of \(entity.name ?? ""): no attribute named '\(name)'")
            }
            if let expression = value as? NSExpression { return try BatchAssignment(expression, for: attribute, in: entity) }
            let normalized = ManagedValueNormalizer.normalize(value, for: attribute)
            if let normalized, !ManagedValueTypeCheck.accepts(normalized, for: attribute) {
                throw CoreDataError.make(NSManagedObjectValidationError, "Batch update of \(entity.name ?? ""): '\(name)' cannot hold \(value) (\(type(of: value)))")
            }
            return BatchAssignment(attribute: attribute, value: normalized)
        }
        guard !assignments.isEmpty else { throw CoreDataError.misuse("A batch update needs propertiesToUpdate") }
        var fetch = StoreFetch(entity: entity)
        fetch.predicate = request.predicate
        fetch.includesSubentities = request.includesSubentities
        let outcome = try store.batchUpdate(
            fetch, assignments: assignments, returningObjectIDs: request.resultType == .updatedObjectIDsResultType, origin: TransactionOrigin(context: self))
        switch request.resultType {
        case .statusOnlyResultType: return NSBatchUpdateResult(result: true, resultType: request.resultType)
        case .updatedObjectIDsResultType: return NSBatchUpdateResult(result: outcome.objectIDs, resultType: request.resultType)
        case .updatedObjectsCountResultType: return NSBatchUpdateResult(result: outcome.count, resultType: request.resultType)
        }
    }

    private func executeBatchDelete(_ request: NSBatchDeleteRequest, on store: some BuiltInStore) throws -> NSBatchDeleteResult {
        let ids: [NSManagedObjectID]
        if let given = request.objectIDs {
            ids = given
        } else {
            let fetch = try storeFetch(for: request.fetchRequest)
            // Without IDs to report, a delete no rule needs row by row runs as one statement.
            if request.resultType != .resultTypeObjectIDs, let count = try store.batchDeleteAtOnce(fetch) {
                return NSBatchDeleteResult(result: request.resultType == .resultTypeCount ? count : true, resultType: request.resultType)
            }
            ids = try store.fetchObjectIDs(fetch, for: self)
        }
        if !ids.isEmpty { try store.batchDelete(ids, origin: TransactionOrigin(context: self)) }
        switch request.resultType {
        case .resultTypeStatusOnly: return NSBatchDeleteResult(result: true, resultType: request.resultType)
        case .resultTypeObjectIDs: return NSBatchDeleteResult(result: ids, resultType: request.resultType)
        case .resultTypeCount: return NSBatchDeleteResult(result: ids.count, resultType: request.resultType)
        }
    }

    private func executeBatchInsert(_ request: NSBatchInsertRequest, on store: some BuiltInStore) throws -> NSBatchInsertResult {
        let entity = try entity(named: request.entityName)
        var dictionaries = request.objectsToInsert ?? []
        if let handler = request.dictionaryHandler {
            while true {
                let entry = NSMutableDictionary()
                if handler(entry) { break }
                dictionaries.append(Dictionary(uniqueKeysWithValues: entry.compactMap { key, value in (key as? String).map { ($0, value) } }))
            }
        }
        if let handler = request.managedObjectHandler {
            let scratch = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            scratch.persistentStoreCoordinator = persistentStoreCoordinator
            while true {
                let object = ManagedObjectClassRegistry.shared.objectClass(for: entity).init(_entity: entity, insertInto: scratch)
                if handler(object) { break }
                dictionaries.append(object.dictionaryWithValues(forKeys: Array(entity.attributesByName.keys)).filter { !($0.value is NSNull) })
            }
        }
        let checked = try dictionaries.map { (values: try batchRowValues($0, entity: entity), named: Set($0.keys)) }
        let plan = try planBatchInsert(checked, into: entity)
        let keys = plan.inserts.isEmpty ? [] : try store.allocatePrimaryKeys(for: entity, count: plan.inserts.count)
        let inserted = zip(plan.inserts, keys).map { values, key in
            RowSnapshot(objectID: store.objectID(for: entity, primaryKey: key), version: 1, values: values)
        }
        let updated = plan.updates.map { stored, values in
            (row: RowSnapshot(objectID: stored.objectID, version: stored.version + 1, values: values), expectedVersion: stored.version)
        }
        do {
            try store.apply(StoreChanges(inserted: inserted, updated: updated, origin: TransactionOrigin(context: self)))
        } catch let conflict as StoreVersionConflict {
            throw CoreDataError.make(NSManagedObjectMergeError,
                "Batch insert into \(entity.name ?? ""): \(conflict.conflicts.count) stored row(s) changed while the request ran",
                [NSAffectedObjectsErrorKey: conflict.conflicts.map(\.objectID)])
        }
        // Rows the request wrote: the new ones and the stored ones it updated.
        let written = inserted.map(\.objectID) + updated.map(\.row.objectID)
        switch request.resultType {
        case .statusOnly: return NSBatchInsertResult(result: true, resultType: request.resultType)
        case .objectIDs: return NSBatchInsertResult(result: written, resultType: request.resultType)
        case .count: return NSBatchInsertResult(result: written.count, resultType: request.resultType)
        }
    }

    /// A dictionary checked against the entity: known attributes, fitting types, defaults for
    /// missing values, and no missing mandatory value.
    private func batchRowValues(_ dictionary: [String: Any], entity: NSEntityDescription) throws -> [String: Any] {
        var values: [String: Any] = [:]
        for (name, value) in dictionary {
            guard let attribute = entity.attributesByName[name] else {
                throw CoreDataError.misuse("Batch insert into \(entity.name ?? ""): no attribute named '\(name)'")
            }
            guard let normalized = ManagedValueNormalizer.normalize(value, for: attribute) else { continue }
            guard ManagedValueTypeCheck.accepts(normalized, for: attribute) else {
                throw CoreDataError.make(NSManagedObjectValidationError, "Batch insert into \(entity.name ?? ""): '\(name)' cannot hold \(value)")
            }
            values[name] = normalized
        }
        for attribute in entity.attributesByName.values where values[attribute.name] == nil {
            if let defaultValue = attribute.defaultValue {
                values[attribute.name] = ManagedValueNormalizer.normalize(defaultValue, for: attribute)
            } else if !attribute.isOptional && !attribute.isTransient {
                throw CoreDataError.make(NSValidationMissingMandatoryPropertyError, "Batch insert into \(entity.name ?? ""): '\(attribute.name)' is required")
            }
        }
        return values
    }
}
