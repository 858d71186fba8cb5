import CoreData
import Foundation
import Testing

final class DestinationNode: NSManagedObject {
    @Managed var label: String?
    @Managed var next: DestinationNode?
    @Managed var owner: DestinationNode?
    @Managed var owned: NSSet?
}

/// A to-one relationship names its destination by ID and finds it through the context when
/// read, as on Apple platforms: the source holds no strong reference to it, and a destination
/// saved (or given its permanent ID) in between is still the one found.
@Suite struct ToOneDestinationTests {
    let directory = TemporaryDirectory()
    let model = NSManagedObjectModel(entities: [
        NSEntityDescription(name: "Node", className: "DestinationNode", properties: [
            NSAttributeDescription(name: "label", type: .stringAttributeType),
            NSRelationshipDescription(name: "next", destination: "Node"),
            NSRelationshipDescription(name: "owner", destination: "Node", inverse: "owned"),
            NSRelationshipDescription(name: "owned", destination: "Node", toMany: true, inverse: "owner"),
        ]),
    ])

    func insertNode(_ label: String, into context: NSManagedObjectContext) throws -> DestinationNode {
        let node = try #require(NSEntityDescription.insertNewObject(forEntityName: "Node", into: context) as? DestinationNode)
        node.label = label
        return node
    }

    /// The node labelled `label`, fetched by `reader` (on its queue).
    func storedNode(_ label: String, in reader: NSManagedObjectContext) throws -> DestinationNode? {
        let request = NSFetchRequest<DestinationNode>(entityName: "Node")
        request.predicate = NSPredicate(format: "label == %@", label)
        return try reader.fetch(request).first
    }

    @Test func aSavedDestinationNobodyElseHoldsIsReleasedAndFaultedAgain() throws {
        let container = try makeContainer("Nodes", model: model, storeURL: directory.file("Nodes.sqlite"))
        let context = container.newBackgroundContext()
        #expect(!context.retainsRegisteredObjects)
        weak var released: DestinationNode?
        let (source, targetID) = try context.performAndWait {
            let source = try insertNode("source", into: context)
            let target = try insertNode("target", into: context)
            source.next = target
            try context.save()
            released = target
            return (source, target.objectID)
        }
        // The outermost block ended: the context let go of the saved target, and the source
        // did not keep it alive.
        #expect(released == nil)
        context.performAndWait {
            #expect(context.registeredObject(for: targetID) == nil)
            let target = source.next
            #expect(target?.objectID == targetID)
            #expect(target?.isFault == true)
            #expect(target?.label == "target")
            #expect(context.registeredObject(for: targetID) === target)
        }
    }

    @Test func aNewDestinationIsFoundAfterItsPermanentID() throws {
        let container = try makeContainer("Nodes", model: model, storeURL: directory.file("Nodes.sqlite"))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let source = try insertNode("source", into: context)
            let target = try insertNode("target", into: context)
            source.next = target
            source.owner = target
            #expect(target.objectID.isTemporaryID)
            try context.obtainPermanentIDs(for: [target])
            #expect(!target.objectID.isTemporaryID)
            #expect(source.next === target)
            #expect(source.owner === target)
            #expect(context.registeredObject(for: target.objectID) === target)
        }
        try context.performAndWait { try context.save() }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let source = try #require(try storedNode("source", in: reader))
            #expect(source.next?.label == "target")
            #expect(source.owner?.label == "target")
            #expect(source.owner?.owned?.count == 1)
        }
    }

    @Test func aNewDestinationIsFoundAfterTheSave() throws {
        let container = try makeContainer("Nodes", model: model, storeURL: directory.file("Nodes.sqlite"))
        let context = container.newBackgroundContext()
        context.retainsRegisteredObjects = true
        try context.performAndWait {
            let source = try insertNode("source", into: context)
            let target = try insertNode("target", into: context)
            source.next = target
            try context.save()
            #expect(!target.objectID.isTemporaryID)
            #expect(source.next === target)
            // Changed and saved again, the row names the destination by its permanent ID.
            source.label = "source 2"
            try context.save()
            #expect(source.next === target)
            #expect(source.committedValues(forKeys: ["next"])["next"] as? DestinationNode === target)
        }
    }

    @Test func aChildsNewDestinationIsFoundAfterTheParentSaves() throws {
        let container = try makeContainer("Nodes", model: model, storeURL: directory.file("Nodes.sqlite"))
        let parent = container.newBackgroundContext()
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        let (source, target) = try child.performAndWait {
            let source = try insertNode("source", into: child)
            let target = try insertNode("target", into: child)
            source.next = target
            try child.save()
            return (source, target)
        }
        try parent.performAndWait { try parent.save() }
        child.performAndWait {
            #expect(source.next === target)
            #expect(target.objectID.isTemporaryID == false)
            #expect(child.registeredObject(for: target.objectID) === target)
        }
    }

    @Test func undoPutsBackADestinationThatASaveRenamed() throws {
        let container = try makeContainer("Nodes", model: model, storeURL: directory.file("Nodes.sqlite"))
        let context = container.viewContext
        context.undoManager = UndoManager()
        try context.performAndWait {
            let source = try insertNode("source", into: context)
            let first = try insertNode("first", into: context)
            let second = try insertNode("second", into: context)
            source.next = first
            context.processPendingChanges()
            source.next = second
            context.processPendingChanges()
            try context.save()
            context.undo()
            #expect(source.next === first)
            #expect(!first.objectID.isTemporaryID)
            try context.save()
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let source = try #require(try storedNode("source", in: reader))
            #expect(source.next?.label == "first")
        }
    }
}
