/// The cache nodes as the binary store's file holds them, and back.
extension BinaryStore {
    /// Every node, in object-ID order so that an unchanged graph writes the same bytes.
    func archive() throws -> BinaryStoreArchive {
        let objects = try cacheNodes().sorted { $0.objectID < $1.objectID }.map { node in
            var values: [String: Any] = [:]
            for property in node.objectID.entity.properties where !property.isTransient {
                guard let value = node.value(forKey: property.name) else { continue }
                switch property {
                case let relationship as NSRelationshipDescription where relationship.isToMany:
                    let members = (ToManyValue.elements(of: value) ?? []).compactMap(heldNode)
                    values[property.name] = (relationship.isOrdered ? members : members.sorted { $0.objectID < $1.objectID }).map(fileReference)
                case is NSRelationshipDescription:
                    values[property.name] = heldNode(value).map(fileReference)
                case let attribute as NSAttributeDescription:
                    values[property.name] = try BinaryStoreValueCoding.encode(value, as: attribute)
                default:
                    continue
                }
            }
            return BinaryStoreArchive.Object(entityName: node.objectID.entity.name ?? "", reference: referenceObject(for: node.objectID), values: values)
        }
        return BinaryStoreArchive(metadata: metadata ?? [:], lastReferences: lastReferences, objects: objects)
    }

    /// Makes the file's objects into nodes: attributes first, relationships once every node
    /// exists, since they may lead to any of them.
    func restore(_ archive: BinaryStoreArchive, model: NSManagedObjectModel) throws {
        var made: [(node: NSAtomicStoreCacheNode, values: [String: Any])] = []
        for object in archive.objects {
            guard let entity = model.entitiesByName[object.entityName] else {
                throw CoreDataError.make(NSPersistentStoreIncompatibleVersionHashError,
                    "The binary store at \(url?.path ?? "?") holds objects of entity '\(object.entityName)', which the model lacks",
                    [NSURLErrorKey: url as Any])
            }
            let node = NSAtomicStoreCacheNode(objectID: objectID(for: entity, withReferenceObject: object.reference))
            for (name, attribute) in entity.attributesByName where !attribute.isTransient {
                guard let value = object.values[name] else { continue }
                node.setValue(try BinaryStoreValueCoding.decode(value, as: attribute), forKey: name)
            }
            made.append((node, object.values))
        }
        addCacheNodes(Set(made.map(\.node)))
        for (node, values) in made {
            for (name, relationship) in node.objectID.entity.relationshipsByName where !relationship.isTransient {
                guard let value = values[name] else { continue }
                if relationship.isToMany {
                    let members = (value as? [Any] ?? []).compactMap { destination($0, in: model) }
                    node.setValue(relationship.isOrdered ? NSOrderedSet(array: members) : NSSet(array: members), forKey: name)
                } else {
                    node.setValue(destination(value, in: model), forKey: name)
                }
            }
        }
    }

    /// A destination node the store still holds (a deleted one may linger in a node the
    /// save did not touch).
    private func heldNode(_ value: Any) -> NSAtomicStoreCacheNode? {
        guard let node = value as? NSAtomicStoreCacheNode, cacheNode(for: node.objectID) === node else { return nil }
        return node
    }

    private func fileReference(_ node: NSAtomicStoreCacheNode) -> [Any] {
        [node.objectID.entity.name ?? "", referenceObject(for: node.objectID)]
    }

    /// The node a file reference names.
    private func destination(_ reference: Any, in model: NSManagedObjectModel) -> NSAtomicStoreCacheNode? {
        guard let pair = reference as? [Any], pair.count == 2, let name = pair[0] as? String,
              let entity = model.entitiesByName[name] else { return nil }
        return cacheNode(for: objectID(for: entity, withReferenceObject: pair[1]))
    }
}
