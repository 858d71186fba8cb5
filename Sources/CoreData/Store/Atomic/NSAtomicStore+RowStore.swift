/// The coordinator's questions, answered from the cache nodes: reads from the table that
/// indexes them, saves through the public node API and `save()`.
extension NSAtomicStore: TableBackedStore {
    func load(model: NSManagedObjectModel) throws {
        try locked {
            try load()
            // A subclass that keeps no metadata gets what a store needs to be named and checked.
            var metadata = self.metadata ?? [:]
            if (metadata[NSStoreUUIDKey] as? String ?? "").isEmpty { metadata[NSStoreUUIDKey] = UUID().uuidString }
            if metadata[NSStoreTypeKey] == nil { metadata[NSStoreTypeKey] = type }
            if metadata[NSStoreModelVersionHashesKey] == nil { metadata[NSStoreModelVersionHashesKey] = model.entityVersionHashesByName }
            guard model.isConfiguration(withName: configurationName, compatibleWithStoreMetadata: metadata) else {
                throw CoreDataError.make(NSPersistentStoreIncompatibleVersionHashError,
                    "The model used to open the store is incompatible with the one used to create the store at \(url?.path ?? "?")",
                    [NSURLErrorKey: url as Any, "metadata": metadata])
            }
            self.metadata = metadata
            identifier = metadata[NSStoreUUIDKey] as? String
            for node in nodes.values { index(node, version: 1) }
        }
    }

    func permanentIDs(for objects: [NSManagedObject]) throws -> [NSManagedObjectID] {
        try locked {
            try objects.map { object in
                objectID(for: object.entity, primaryKey: try references.key(for: newReferenceObject(for: object)))
            }
        }
    }

    func metadataWasSet(_ metadata: [String: Any]) {
        metadataIsUnsaved = true
    }

    /// `save()` writes the whole file, metadata included.
    func writePendingMetadata() throws {
        try locked {
            guard metadataIsUnsaved else { return }
            try save()
            metadataIsUnsaved = false
        }
    }

    /// Turns the save into node changes, has the subclass write them, and puts the nodes back
    /// if it cannot.
    func apply(_ changes: StoreChanges, from context: NSManagedObjectContext) throws {
        try locked {
            if let conflict = table.versionConflict(with: changes) { throw conflict }
            let objects = changes.objects(in: context)
            let nodesBefore = nodes
            let valuesBefore = objects.updated.compactMap { nodes[$0.objectID] }.map { ($0, $0.propertyCache?.mutableCopy() as? NSMutableDictionary) }
            awaitingNodes = Dictionary(uniqueKeysWithValues: objects.inserted.map { ($0.objectID, $0) })
            defer { awaitingNodes = [:] }
            do {
                for object in objects.inserted where awaitingNodes.removeValue(forKey: object.objectID) != nil {
                    addCacheNodes([newCacheNode(for: object)])
                }
                for object in objects.updated {
                    if let node = nodes[object.objectID] { updateCacheNode(node, from: object) }
                }
                let removed = Set(objects.deleted.compactMap { nodes[$0.objectID] })
                if !removed.isEmpty {
                    willRemoveCacheNodes(removed)
                    for node in removed { nodes[node.objectID] = nil }
                }
                try save()
                metadataIsUnsaved = false
            } catch {
                nodes = nodesBefore
                for (node, values) in valuesBefore { node.propertyCache = values }
                throw error
            }
            reindex(after: changes)
        }
    }

    func executeBatch(_ request: NSPersistentStoreRequest, for context: NSManagedObjectContext) throws -> NSPersistentStoreResult {
        throw CoreDataError.make(NSPersistentStoreUnsupportedRequestTypeError,
            "\(Swift.type(of: request)) needs a SQLite or in-memory store; \(Swift.type(of: self)) is an atomic store, which saves only whole object graphs")
    }

    func close() {}

    // MARK: Indexing

    /// Brings the table in line with the nodes a save touched.
    private func reindex(after changes: StoreChanges) {
        for (id, _) in changes.deleted { table.remove(id) }
        let versions = Dictionary((changes.inserted + changes.updated.map(\.row)).map { ($0.objectID, $0.version) },
                                  uniquingKeysWith: { _, last in last })
        for id in Set(versions.keys).union(changes.toMany.map(\.source)) {
            guard let node = nodes[id] else { continue }
            index(node, version: versions[id] ?? table.row(for: id)?.version ?? 1)
        }
    }

    /// Stores a node's values as a row, and its to-many members, in the table; destinations
    /// that are no longer nodes of the store are left out.
    private func index(_ node: NSAtomicStoreCacheNode, version: Int64) {
        let entity = node.objectID.entity
        var values = RowValues(entity: entity)
        for property in entity.properties where !property.isTransient {
            let value = node.value(forKey: property.name)
            switch property {
            case let relationship as NSRelationshipDescription where relationship.isToMany:
                let members = value.flatMap(ToManyValue.elements(of:))?.compactMap(registeredID) ?? []
                table.setMembers(relationship.isOrdered ? members : members.sorted(), of: relationship, for: node.objectID)
            case is NSRelationshipDescription:
                values[property.name] = value.flatMap(registeredID)
            case let attribute as NSAttributeDescription:
                values[property.name] = ManagedValueNormalizer.normalize(value, for: attribute)
            default:
                continue
            }
        }
        table.store(RowSnapshot(objectID: node.objectID, version: version, values: values))
    }

    /// The ID of a destination node the store holds.
    private func registeredID(_ destination: Any) -> NSManagedObjectID? {
        guard let node = destination as? NSAtomicStoreCacheNode, nodes[node.objectID] === node else { return nil }
        return node.objectID
    }
}
