import CoreData
import Foundation
import Testing

/// Found by `ContextDifferentialTests`: a to-many relationship changed on an object that is
/// still a fault (never read since the context was reset), directly or as the inverse of a
/// to-one, must keep the change when the fault fires: in fetches that fold unsaved changes,
/// in what `value(forKey:)` returns, and in what is saved.
@MainActor @Suite struct FaultRelationshipChangeTests {
    let directory = TemporaryDirectory()

    /// Ann owns a pen and Bob a cup, saved; the context is reset so both people are faults.
    func makeOwners(_ storeType: String) throws -> (NSManagedObjectContext, ann: NSManagedObjectID, bob: NSManagedObjectID) {
        let container = try makeContainer(model: QueryTestDatabase.makeModel(), storeURL: storeType == NSInMemoryStoreType ? nil : directory.file("Owners.\(storeType)"), type: storeType)
        let context = container.viewContext
        var people: [NSManagedObject] = []
        for (serial, (name, title)) in [("Ann", "pen"), ("Bob", "cup")].enumerated() {
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            person.setValue(name, forKey: "name")
            person.setValue(serial, forKey: "serial")
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            item.setValue(title, forKey: "title")
            item.setValue(person, forKey: "owner")
            people.append(person)
        }
        NSEntityDescription.insertNewObject(forEntityName: "Group", into: context).setValue("club", forKey: "label")
        try context.save()
        let ids = people.map(\.objectID)
        context.reset()
        return (context, ids[0], ids[1])
    }

    func names(_ context: NSManagedObjectContext, _ format: String) throws -> [String] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.predicate = NSPredicate(format: format)
        request.sortDescriptors = [NSSortDescriptor(key: "serial", ascending: true)]
        return try context.fetch(request).map { $0.value(forKey: "name") as? String ?? "nil" }
    }

    func titles(_ person: NSManagedObject) -> Set<String> {
        Set(((person.value(forKey: "items") as? NSSet)?.allObjects as? [NSManagedObject] ?? []).map { $0.value(forKey: "title") as? String ?? "nil" })
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType, NSBinaryStoreType])
    func movingAnItemToAFaultedOwnerIsSeenByFetchesAndTheOwner(storeType: String) throws {
        let (context, ann, bob) = try makeOwners(storeType)
        let cup = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item")).first { $0.value(forKey: "title") as? String == "cup" })
        #expect(context.object(with: ann).isFault && context.object(with: bob).isFault)
        cup.setValue(context.object(with: ann), forKey: "owner")
        #expect(try names(context, "ANY items.title == 'cup'") == ["Ann"])
        #expect(try names(context, "items.@count == 0") == ["Bob"])
        #expect(titles(context.object(with: ann)) == ["pen", "cup"])
        #expect(titles(context.object(with: bob)) == [])
        try context.save()
        context.reset()
        #expect(titles(context.object(with: ann)) == ["pen", "cup"])
        #expect(titles(context.object(with: bob)) == [])
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType, NSBinaryStoreType])
    func joiningAGroupFromAFaultIsSeenByFetchesAndSaved(storeType: String) throws {
        let (context, ann, _) = try makeOwners(storeType)
        let club = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Group")).first)
        context.refresh(club, mergeChanges: false)
        #expect(club.isFault && context.object(with: ann).isFault)
        context.object(with: ann).mutableSetValue(forKey: "groups").add(club)
        #expect(try names(context, "ANY groups.label == 'club'") == ["Ann"])
        #expect((context.object(with: ann).value(forKey: "groups") as? NSSet)?.count == 1)
        #expect((club.value(forKey: "members") as? NSSet)?.count == 1)
        try context.save()
        context.reset()
        #expect((context.object(with: ann).value(forKey: "groups") as? NSSet)?.count == 1)
        #expect(try names(context, "ANY groups.label == 'club'") == ["Ann"])
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType, NSBinaryStoreType])
    func deletingAnItemOfAFaultedOwnerRemovesItFromTheOwner(storeType: String) throws {
        let (context, ann, _) = try makeOwners(storeType)
        let pen = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item")).first { $0.value(forKey: "title") as? String == "pen" })
        #expect(context.object(with: ann).isFault)
        context.delete(pen)
        context.processPendingChanges()
        #expect(try names(context, "items.@count == 0") == ["Ann"])
        #expect(titles(context.object(with: ann)) == [])
    }
}
