import CoreData
import Foundation
import Testing

/// A child context holding objects with temporary IDs keeps those instances after its parent
/// saves them to the store, even when the parent's save runs inside the child's block.
@Suite struct ChildTemporaryIDTests {
    let directory = TemporaryDirectory()

    /// A store, a background context on it, and a child of that context.
    func stack() throws -> (NSPersistentContainer, NSManagedObjectContext, NSManagedObjectContext) {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite"))
        let parent = container.newBackgroundContext()
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        return (container, parent, child)
    }

    /// Saves the child into the parent and the parent to the store, from the child's block.
    func saveThrough(_ child: NSManagedObjectContext, _ parent: NSManagedObjectContext) throws {
        try child.save()
        try parent.performAndWait { try parent.save() }
    }

    @Test func aChildKeepsReturningItsInstancesAfterItsParentSaves() throws {
        let (_, parent, child) = try stack()
        try child.performAndWait {
            let ada = child.insertPerson("Ada")
            let bo = child.insertPerson("Bo")
            #expect(ada.objectID.isTemporaryID)
            try saveThrough(child, parent)

            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let fetched = try child.fetch(request)
            #expect(fetched.count == 2)
            #expect(fetched.first === ada)
            #expect(fetched.last === bo)
            #expect(!ada.objectID.isTemporaryID)
            #expect(child.object(with: ada.objectID) === ada)
            #expect(try child.existingObject(with: bo.objectID) === bo)
        }
    }

    @Test func notSelfInWithTheChildsObjectsExcludesThem() throws {
        let (_, parent, child) = try stack()
        try child.performAndWait {
            let ada = child.insertPerson("Ada")
            let bo = child.insertPerson("Bo")
            child.insertPerson("Cy")
            try saveThrough(child, parent)

            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.predicate = NSPredicate(format: "NOT (self IN %@)", [ada, bo])
            let rest = try child.fetch(request)
            #expect(rest.compactMap { $0.value(forKey: "name") as? String } == ["Cy"])
            #expect(try child.count(for: request) == 1)
        }
    }

    @Test func aChildsLaterSaveUpdatesTheStoredRowInsteadOfAddingOne() throws {
        let (container, parent, child) = try stack()
        try child.performAndWait {
            let ada = child.insertPerson("Ada")
            try saveThrough(child, parent)
            ada.setValue(Int64(36), forKey: "age")
            try saveThrough(child, parent)
        }
        #expect(try container.newBackgroundContext().storedPeople() == [PersonRecord(name: "Ada", age: 36, nickname: nil, pets: [])])
    }
}
