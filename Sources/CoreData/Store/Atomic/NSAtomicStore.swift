/// A store that holds its whole object graph in memory as cache nodes and reads and writes it
/// whole: subclass it, read your file into nodes in `load()`, write the nodes out in `save()`,
/// and register the subclass with `NSPersistentStoreCoordinator.registerStoreClass(_:type:)`.
/// Fetches, counts and sorts are answered in memory, as the in-memory store answers them.
///
/// For example:
/// ```swift
/// final class NotesFileStore: NSAtomicStore {
///     override func load() throws {
///         for record in try readRecords(at: url!) {
///             let node = NSAtomicStoreCacheNode(objectID: objectID(for: noteEntity, withReferenceObject: record.id))
///             node.setValue(record.title, forKey: "title")
///             addCacheNodes([node])
///         }
///     }
///     override func save() throws {
///         try writeRecords(cacheNodes().map { ($0.objectID, $0.value(forKey: "title")) }, to: url!)
///     }
/// }
/// ```
///
/// A context's save reaches the store in Apple's order: `newReferenceObject(for:)` names each
/// new object, `newCacheNode(for:)` makes its node, `updateCacheNode(_:from:)` refreshes the
/// node of each changed object, `willRemoveCacheNodes(_:)` announces the nodes of deleted
/// objects, and `save()` writes them. When `save()` throws, the nodes are put back as they were
/// and the context's `save()` throws that error, its changes kept.
open class NSAtomicStore: NSPersistentStore, @unchecked Sendable {
    /// The nodes' rows, indexed for fetching; rebuilt from the nodes after loading and saving.
    let table = InMemoryTable()
    let references = ReferenceObjectTable()
    var nodes: [NSManagedObjectID: NSAtomicStoreCacheNode] = [:]
    /// New objects of the save under way whose nodes are not made yet: a relationship of
    /// another new object may lead to one first, and its node is then made on demand.
    var awaitingNodes: [NSManagedObjectID: NSManagedObject] = [:]
    /// The largest positive integer reference in use or handed out, per inheritance hierarchy:
    /// where the default `newReferenceObject(for:)` carries on.
    var lastReferences: [String: Int64] = [:]
    /// Whether `setMetadata(_:for:)` changed `metadata` since the last `save()`.
    var metadataIsUnsaved = false

    /// Reads the store's file into cache nodes, registered with `addCacheNodes(_:)`, and sets
    /// `metadata`. A missing or zero-length file means a new, empty store. Subclasses must
    /// override it.
    open func load() throws {
        throw Self.mustOverride("load()")
    }

    /// Writes every node of `cacheNodes()` to the store's file. Subclasses must override it.
    open func save() throws {
        throw Self.mustOverride("save()")
    }

    /// The node of an object a save inserts. The default copies every stored property:
    /// attributes, the destination's node for a to-one, an `NSSet` (ordered: `NSOrderedSet`)
    /// of nodes for a to-many. An override that looks up related nodes should register its
    /// node with `addCacheNodes(_:)` first, so a relationship that leads back finds it.
    open func newCacheNode(for managedObject: NSManagedObject) -> NSAtomicStoreCacheNode {
        let node = NSAtomicStoreCacheNode(objectID: managedObject.objectID)
        addCacheNodes([node])
        copyValues(of: managedObject, into: node)
        return node
    }

    /// Refreshes the node of an object a save updates; the default copies every stored property
    /// as `newCacheNode(for:)` does.
    open func updateCacheNode(_ node: NSAtomicStoreCacheNode, from managedObject: NSManagedObject) {
        copyValues(of: managedObject, into: node)
    }

    /// Every node the store holds.
    open func cacheNodes() -> Set<NSAtomicStoreCacheNode> {
        locked { Set(nodes.values) }
    }

    /// Registers nodes, in `load()` or while a save makes new ones.
    open func addCacheNodes(_ cacheNodes: Set<NSAtomicStoreCacheNode>) {
        locked {
            for node in cacheNodes {
                nodes[node.objectID] = node
                guard let key = node.objectID.primaryKey, key > 0 else { continue }
                lastReferences[hierarchy(of: node.objectID.entity)] = max(key, lastReferences[hierarchy(of: node.objectID.entity), default: 0])
            }
        }
    }

    /// The node of `objectID`, nil if the store has none.
    open func cacheNode(for objectID: NSManagedObjectID) -> NSAtomicStoreCacheNode? {
        locked {
            if let node = nodes[objectID] { return node }
            guard let object = awaitingNodes.removeValue(forKey: objectID) else { return nil }
            let node = newCacheNode(for: object)
            addCacheNodes([node])
            return node
        }
    }

    /// Called during a save, before the nodes of deleted objects leave the store.
    open func willRemoveCacheNodes(_ cacheNodes: Set<NSAtomicStoreCacheNode>) {}

    /// The reference object that names a new object in this store, unique within its entity's
    /// inheritance hierarchy and never changing. The default is the next integer after every
    /// one in use (Apple's subclasses must override it): a positive integer reference keeps the
    /// object's ID and URI the same across launches.
    open func newReferenceObject(for managedObject: NSManagedObject) -> Any {
        locked {
            let hierarchy = hierarchy(of: managedObject.entity)
            let next = lastReferences[hierarchy, default: 0] + 1
            lastReferences[hierarchy] = next
            return NSNumber(value: next)
        }
    }

    /// The ID of the object `data` names in this store, for making nodes in `load()`. Not for
    /// overriding.
    public final func objectID(for entity: NSEntityDescription, withReferenceObject data: Any) -> NSManagedObjectID {
        references.objectID(for: entity, reference: data, in: self)
    }

    /// The reference object `objectID` was made from, for writing nodes in `save()`. Not for
    /// overriding.
    public final func referenceObject(for objectID: NSManagedObjectID) -> Any {
        references.reference(for: objectID, in: self)
    }

    /// Reference objects are unique per inheritance hierarchy, as primary keys are per table.
    private func hierarchy(of entity: NSEntityDescription) -> String {
        entity.rootEntity.name ?? ""
    }

    /// What the default `newCacheNode(for:)` and `updateCacheNode(_:from:)` do.
    private func copyValues(of object: NSManagedObject, into node: NSAtomicStoreCacheNode) {
        let row = object.currentRow(version: 0)
        let toMany = object.managedObjectContext?.toManyIDs(of: object, all: true) ?? [:]
        for property in object.entity.properties where !property.isTransient {
            switch property {
            case let relationship as NSRelationshipDescription where relationship.isToMany:
                // A to-many the context never read is unchanged: the node keeps its members.
                guard let members = toMany[relationship.name] else { continue }
                let destinations = members.compactMap(cacheNode(for:))
                node.setValue(relationship.isOrdered ? NSOrderedSet(array: destinations) : NSSet(array: destinations), forKey: relationship.name)
            case is NSRelationshipDescription:
                node.setValue((row.values[property.name] as? NSManagedObjectID).flatMap(cacheNode(for:)), forKey: property.name)
            default:
                node.setValue(row.values[property.name], forKey: property.name)
            }
        }
    }

    private static func mustOverride(_ method: String) -> NSError {
        CoreDataError.make(NSPersistentStoreOperationError, "\(Self.self) must override NSAtomicStore.\(method)")
    }
}
