import CoreData
import Foundation

/// An atomic store written the way an app writes one: a subclass of `NSAtomicStore` keeping its
/// objects as lines of JSON (the first line the store's metadata, then one object a line),
/// through the public atomic-store API only. It records each call the framework makes, so
/// tests can check that saves reach it as they do on Apple platforms.
///
/// Attributes must be strings or numbers (what JSON holds); relationships are written as lists
/// of `[entity name, reference]`.
final class JSONLinesStore: NSAtomicStore, @unchecked Sendable {
    static let type = "JSONLines"

    /// Registers the class once per process.
    static let registered: Void = NSPersistentStoreCoordinator.registerStoreClass(JSONLinesStore.self, type: type)

    /// The framework's calls in order: `load`, `save`, `reference Book`, `new Book Dune`,
    /// `update Book Dune`, `remove Book Dune`.
    private(set) var calls: [String] = []
    /// Makes the next `save()` throw before writing anything, as a full disk would.
    var failsNextSave = false
    private var lastReference = 0

    override func load() throws {
        calls.append("load")
        guard let url, let text = try? String(contentsOf: url, encoding: .utf8), !text.isEmpty else {
            metadata = [NSStoreTypeKey: Self.type, NSStoreUUIDKey: UUID().uuidString]
            return
        }
        let lines = try text.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
        metadata = lines[0]
        let model = persistentStoreCoordinator!.managedObjectModel
        var made: [(node: NSAtomicStoreCacheNode, line: [String: Any])] = []
        for line in lines.dropFirst() {
            let entity = model.entitiesByName[line["entity"] as! String]!
            let reference = line["reference"] as! Int
            lastReference = max(lastReference, reference)
            let node = NSAtomicStoreCacheNode(objectID: objectID(for: entity, withReferenceObject: reference))
            for (name, value) in line["attributes"] as! [String: Any] { node.setValue(value, forKey: name) }
            made.append((node, line))
        }
        addCacheNodes(Set(made.map(\.node)))
        for (node, line) in made {
            for (name, references) in line["relationships"] as! [String: [[Any]]] {
                let destinations = references.compactMap { pair in
                    cacheNode(for: objectID(for: model.entitiesByName[pair[0] as! String]!, withReferenceObject: pair[1]))
                }
                let isToMany = node.objectID.entity.relationshipsByName[name]!.isToMany
                node.setValue(isToMany ? NSSet(array: destinations) : destinations.first, forKey: name)
            }
        }
    }

    override func save() throws {
        calls.append("save")
        if failsNextSave {
            failsNextSave = false
            throw NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))
        }
        var lines: [[String: Any]] = [[NSStoreUUIDKey: metadata[NSStoreUUIDKey]!, NSStoreTypeKey: metadata[NSStoreTypeKey]!]]
        for node in cacheNodes().sorted(by: { $0.objectID.uriRepresentation().absoluteString < $1.objectID.uriRepresentation().absoluteString }) {
            let entity = node.objectID.entity
            var attributes: [String: Any] = [:]
            for name in entity.attributesByName.keys { attributes[name] = node.value(forKey: name) }
            var relationships: [String: [[Any]]] = [:]
            for (name, relationship) in entity.relationshipsByName {
                let value = node.value(forKey: name)
                let destinations = relationship.isToMany
                    ? (value as? NSSet)?.allObjects.compactMap { $0 as? NSAtomicStoreCacheNode } ?? []
                    : [value as? NSAtomicStoreCacheNode].compactMap { $0 }
                relationships[name] = destinations.map { [$0.objectID.entity.name!, referenceObject(for: $0.objectID)] }
            }
            lines.append(["entity": entity.name!, "reference": referenceObject(for: node.objectID),
                          "attributes": attributes, "relationships": relationships])
        }
        let text = try lines.map { String(decoding: try JSONSerialization.data(withJSONObject: $0, options: .sortedKeys), as: UTF8.self) }
        try text.joined(separator: "\n").write(to: url!, atomically: true, encoding: .utf8)
    }

    override func newReferenceObject(for managedObject: NSManagedObject) -> Any {
        calls.append("reference \(managedObject.entity.name!)")
        lastReference += 1
        return lastReference
    }

    override func newCacheNode(for managedObject: NSManagedObject) -> NSAtomicStoreCacheNode {
        calls.append("new \(Self.describe(managedObject))")
        let node = NSAtomicStoreCacheNode(objectID: managedObject.objectID)
        // Registered first, so a relationship that leads back to this object finds the node.
        addCacheNodes([node])
        copy(managedObject, into: node)
        return node
    }

    override func updateCacheNode(_ node: NSAtomicStoreCacheNode, from managedObject: NSManagedObject) {
        calls.append("update \(Self.describe(managedObject))")
        copy(managedObject, into: node)
    }

    override func willRemoveCacheNodes(_ cacheNodes: Set<NSAtomicStoreCacheNode>) {
        calls += cacheNodes.map { "remove \($0.objectID.entity.name!) \($0.value(forKey: Self.labelKey(of: $0.objectID.entity)) ?? "")" }.sorted()
    }

    private func copy(_ object: NSManagedObject, into node: NSAtomicStoreCacheNode) {
        for name in object.entity.attributesByName.keys { node.setValue(object.value(forKey: name), forKey: name) }
        for (name, relationship) in object.entity.relationshipsByName {
            if relationship.isToMany {
                let members = (object.value(forKey: name) as? NSSet)?.allObjects.compactMap { $0 as? NSManagedObject } ?? []
                node.setValue(NSSet(array: members.compactMap { cacheNode(for: $0.objectID) }), forKey: name)
            } else {
                node.setValue((object.value(forKey: name) as? NSManagedObject).flatMap { cacheNode(for: $0.objectID) }, forKey: name)
            }
        }
    }

    private static func describe(_ object: NSManagedObject) -> String {
        "\(object.entity.name!) \(object.value(forKey: labelKey(of: object.entity)) ?? "")"
    }

    /// The attribute that names an object in `calls`.
    private static func labelKey(of entity: NSEntityDescription) -> String {
        entity.attributesByName["name"] == nil ? "title" : "name"
    }
}
