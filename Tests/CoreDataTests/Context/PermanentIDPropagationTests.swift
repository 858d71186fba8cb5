import CoreData
import Foundation
import Testing

/// Temporary IDs of objects created in a child become permanent when the chain's top context
/// saves to the store, and every context in the chain learns them.
@Suite struct PermanentIDPropagationTests {
    let directory = TemporaryDirectory()

    @Test func childAndGrandchildLearnPermanentIDsWhenTheTopContextSaves() throws {
        let container = try makeContainer(model: TestModels.dogWalk(), storeURL: directory.file("Chain.sqlite"))
        let top = container.newBackgroundContext()
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = top
        // The child's copies are held by nobody (a to-one holds no strong reference to its
        // destination): kept registered so that their re-keying can be seen.
        child.retainsRegisteredObjects = true
        let grandchild = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        grandchild.parent = child
        let (dog, walk) = try grandchild.performAndWait {
            let dog = Dog(context: grandchild)
            dog.name = "Rex"
            let walk = Walk(context: grandchild)
            walk.dog = dog
            try grandchild.save()
            return (dog, walk)
        }
        let temporaryID = grandchild.performAndWait { dog.objectID }
        #expect(temporaryID.isTemporaryID)
        try child.performAndWait { try child.save() }
        let permanentID = try top.performAndWait { () -> NSManagedObjectID in
            try top.save()
            return try #require(top.registeredObjects.first { $0 is Dog }).objectID
        }
        #expect(!permanentID.isTemporaryID)
        child.performAndWait {
            #expect(child.registeredObject(for: permanentID)?.objectID.isTemporaryID == false)
            #expect(child.registeredObject(for: temporaryID) == nil)
        }
        grandchild.performAndWait {
            #expect(dog.objectID == permanentID)
            #expect(!walk.objectID.isTemporaryID)
            #expect(grandchild.registeredObject(for: permanentID) === dog)
        }
        // Later edits in the grandchild reach the same row rather than a copy.
        try grandchild.performAndWait {
            dog.name = "Max"
            try grandchild.save()
        }
        try child.performAndWait { try child.save() }
        try top.performAndWait { try top.save() }
        let reader = container.newBackgroundContext()
        let stored = try reader.performAndWait {
            try reader.fetch(NSFetchRequest<Dog>(entityName: "Dog")).map { ($0.objectID, $0.name, $0.walks?.count) }
        }
        #expect(stored.count == 1)
        #expect(stored.first?.0 == permanentID)
        #expect(stored.first?.1 == "Max")
        #expect(stored.first?.2 == 1)
    }

    @Test func aChildsUnfiredFaultLearnsThePermanentIDsItsRowNames() throws {
        let container = try makeContainer(model: TestModels.dogWalk(), storeURL: directory.file("Rows.sqlite"))
        let top = container.newBackgroundContext()
        top.performAndWait {
            let dog = Dog(context: top)
            dog.name = "Rex"
            Walk(context: top).dog = dog
        }
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = top
        let walk = try child.performAndWait {
            let walk = try #require(try child.fetch(NSFetchRequest<Walk>(entityName: "Walk")).first)
            #expect(walk.isFault && walk.objectID.isTemporaryID, "a fault on the parent's unsaved row, naming an unsaved dog")
            return walk
        }
        let dogID = try top.performAndWait { () -> NSManagedObjectID in
            try top.save()
            return try #require(top.registeredObjects.first { $0 is Dog }).objectID
        }
        child.performAndWait {
            #expect(walk.isFault && !walk.objectID.isTemporaryID)
            #expect(walk.dog?.objectID == dogID, "the row the fault waited on names the dog by its permanent ID")
            #expect(walk.dog?.name == "Rex")
            #expect(child.registeredObject(for: dogID) === walk.dog)
        }
    }

    @Test func aChildMergingTheParentsSaveSeesNoDuplicates() async throws {
        let container = try makeContainer(model: TestModels.dogWalk(), storeURL: directory.file("Merge.sqlite"))
        let top = container.newBackgroundContext()
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = top
        child.automaticallyMergesChangesFromParent = true
        try await child.perform {
            Dog(context: child).name = "Once"
            try child.save()
        }
        try await top.perform { try top.save() }
        let (registered, fetched) = try await child.perform {
            (child.registeredObjects.filter { $0 is Dog }.count, try child.fetch(NSFetchRequest<Dog>(entityName: "Dog")).count)
        }
        #expect(registered == 1)
        #expect(fetched == 1)
    }
}
