import CoreData
import Foundation
import Testing

/// A context with an undo manager: each `processPendingChanges()` is one undo step covering
/// attribute and relationship edits, inserts and deletes, on a real SQLite store.
@MainActor @Suite struct ContextUndoTests {
    let directory = TemporaryDirectory()

    /// A context with an undo manager over a store holding Ada (with her cat Tom) and Bo.
    func seeded() throws -> NSManagedObjectContext {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite"))
        let context = container.viewContext
        context.insertPerson("Ada", age: 36, pets: ["Tom"])
        context.insertPerson("Bo", age: 20)
        try context.save()
        context.undoManager = UndoManager()
        return context
    }

    func fetchOne(_ entity: String, named name: String, in context: NSManagedObjectContext) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.predicate = NSPredicate(format: "name == %@", name)
        return try #require(context.fetch(request).first)
    }

    func pets(of person: NSManagedObject) -> Set<NSManagedObject> {
        Set((person.value(forKey: "pets") as? NSSet)?.allObjects.compactMap { $0 as? NSManagedObject } ?? [])
    }

    @Test func contextsHaveNoUndoManagerByDefault() throws {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite"))
        let context = container.viewContext
        #expect(context.undoManager == nil)
        let ada = context.insertPerson("Ada")
        context.processPendingChanges()
        context.undo()
        #expect(ada.isInserted)
        #expect(context.insertedObjects == [ada])
    }

    @Test func attributeEditIsUndoneAndRedone() throws {
        let context = try seeded()
        let ada = try fetchOne("Person", named: "Ada", in: context)
        ada.setValue(37, forKey: "age")
        context.processPendingChanges()
        #expect(context.updatedObjects == [ada])

        context.undo()
        #expect(ada.value(forKey: "age") as? Int64 == 36)
        #expect(!context.hasChanges)
        #expect(context.updatedObjects.isEmpty)
        #expect(context.undoManager?.canRedo == true)

        context.redo()
        #expect(ada.value(forKey: "age") as? Int64 == 37)
        #expect(context.updatedObjects == [ada])
    }

    @Test func undoProcessesPendingChangesFirst() throws {
        let context = try seeded()
        let ada = try fetchOne("Person", named: "Ada", in: context)
        ada.setValue("Countess", forKey: "nickname")
        // No processPendingChanges: the undo manager's checkpoint makes the context register it.
        context.undoManager?.undo()
        #expect(ada.value(forKey: "nickname") == nil)
        #expect(!context.hasChanges)
    }

    @Test func relationshipEditUndoRestoresBothSides() throws {
        let context = try seeded()
        let ada = try fetchOne("Person", named: "Ada", in: context)
        let bo = try fetchOne("Person", named: "Bo", in: context)
        let tom = try fetchOne("Pet", named: "Tom", in: context)
        tom.setValue(bo, forKey: "owner")
        context.processPendingChanges()
        #expect(pets(of: ada).isEmpty)
        #expect(pets(of: bo) == [tom])

        context.undo()
        #expect(tom.value(forKey: "owner") as? NSManagedObject === ada)
        #expect(pets(of: ada) == [tom])
        #expect(pets(of: bo).isEmpty)
        #expect(!context.hasChanges)

        context.redo()
        #expect(tom.value(forKey: "owner") as? NSManagedObject === bo)
        #expect(pets(of: ada).isEmpty)
        #expect(pets(of: bo) == [tom])
    }

    @Test func toManyEditUndoRestoresBothSides() throws {
        let context = try seeded()
        let ada = try fetchOne("Person", named: "Ada", in: context)
        let bo = try fetchOne("Person", named: "Bo", in: context)
        let tom = try fetchOne("Pet", named: "Tom", in: context)
        bo.mutableSetValue(forKey: "pets").add(tom)
        context.processPendingChanges()
        #expect(tom.value(forKey: "owner") as? NSManagedObject === bo)

        context.undo()
        #expect(tom.value(forKey: "owner") as? NSManagedObject === ada)
        #expect(pets(of: ada) == [tom])
        #expect(pets(of: bo).isEmpty)
    }

    @Test func insertUndoRemovesTheObjectAndRedoBringsItBack() throws {
        let context = try seeded()
        let ada = try fetchOne("Person", named: "Ada", in: context)
        let cy = context.insertPerson("Cy", pets: ["Rex"])
        let rex = try #require(pets(of: cy).first)
        context.processPendingChanges()

        context.undo()
        #expect(context.insertedObjects.isEmpty)
        #expect(context.deletedObjects.isEmpty)
        #expect(!context.hasChanges)
        #expect(context.registeredObject(for: cy.objectID) == nil)
        #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Person")) == 2)
        #expect(pets(of: ada).count == 1)

        context.redo()
        #expect(context.insertedObjects == [cy, rex])
        #expect(cy.value(forKey: "name") as? String == "Cy")
        #expect(rex.value(forKey: "owner") as? NSManagedObject === cy)
        try context.save()
        #expect(try context.storedPeople().map(\.name) == ["Ada", "Bo", "Cy"])
    }

    @Test func deleteUndoReinsertsWithValuesAndRelationships() throws {
        let context = try seeded()
        let ada = try fetchOne("Person", named: "Ada", in: context)
        let tom = try fetchOne("Pet", named: "Tom", in: context)
        context.delete(ada)
        context.processPendingChanges()
        #expect(tom.value(forKey: "owner") == nil)
        #expect(context.deletedObjects == [ada])

        context.undo()
        #expect(!ada.isDeleted)
        #expect(context.deletedObjects.isEmpty)
        #expect(tom.value(forKey: "owner") as? NSManagedObject === ada)
        #expect(pets(of: ada) == [tom])
        #expect(ada.value(forKey: "age") as? Int64 == 36)
        #expect(!context.hasChanges)

        context.redo()
        #expect(ada.isDeleted)
        #expect(tom.value(forKey: "owner") == nil)
    }

    @Test func undoOfASavedDeleteInsertsTheObjectAgain() throws {
        let context = try seeded()
        let ada = try fetchOne("Person", named: "Ada", in: context)
        context.delete(ada)
        context.processPendingChanges()
        try context.save()
        #expect(try context.storedPeople().map(\.name) == ["Bo"])

        context.undo()
        #expect(context.insertedObjects.contains(ada))
        try context.save()
        let stored = try context.storedPeople()
        #expect(stored.map(\.name) == ["Ada", "Bo"])
        #expect(stored.first?.pets == ["Tom"])
    }

    @Test func processPendingChangesSeparatesUndoSteps() throws {
        let context = try seeded()
        let ada = try fetchOne("Person", named: "Ada", in: context)
        ada.setValue("Countess", forKey: "nickname")
        context.processPendingChanges()
        ada.setValue(40, forKey: "age")
        ada.setValue(41, forKey: "age")
        context.processPendingChanges()

        context.undo()
        #expect(ada.value(forKey: "age") as? Int64 == 36)
        #expect(ada.value(forKey: "nickname") as? String == "Countess")
        context.undo()
        #expect(ada.value(forKey: "nickname") == nil)
        #expect(context.undoManager?.canUndo == false)
    }

    @Test func undoAfterSaveMakesTheContextDirtyWithTheOldValue() throws {
        let context = try seeded()
        let ada = try fetchOne("Person", named: "Ada", in: context)
        ada.setValue(50, forKey: "age")
        context.processPendingChanges()
        try context.save()
        #expect(!context.hasChanges)

        context.undo()
        #expect(ada.value(forKey: "age") as? Int64 == 36)
        #expect(context.hasChanges)
        #expect(context.updatedObjects == [ada])
        try context.save()
        #expect(try context.storedPeople().first?.age == 36)
    }

    @Test func savingRegistersNoUndoStep() throws {
        let context = try seeded()
        let ada = try fetchOne("Person", named: "Ada", in: context)
        ada.setValue(50, forKey: "age")
        try context.save()
        context.undo()
        #expect(ada.value(forKey: "age") as? Int64 == 36)
        #expect(context.undoManager?.canUndo == false)
    }

    @Test func rollbackAndResetClearTheUndoStack() throws {
        let context = try seeded()
        let ada = try fetchOne("Person", named: "Ada", in: context)
        ada.setValue(50, forKey: "age")
        context.processPendingChanges()
        #expect(context.undoManager?.canUndo == true)
        context.rollback()
        #expect(context.undoManager?.canUndo == false)

        context.insertPerson("Cy")
        context.processPendingChanges()
        context.reset()
        #expect(context.undoManager?.canUndo == false)
    }

    @Test func disabledRegistrationRecordsNothing() throws {
        let context = try seeded()
        let ada = try fetchOne("Person", named: "Ada", in: context)
        context.processPendingChanges()
        context.undoManager?.disableUndoRegistration()
        ada.setValue(50, forKey: "age")
        context.processPendingChanges()
        context.undoManager?.enableUndoRegistration()
        #expect(context.undoManager?.canUndo == false)
    }

    @Test func undoPostsObjectsDidChange() throws {
        let context = try seeded()
        let ada = try fetchOne("Person", named: "Ada", in: context)
        let cy = context.insertPerson("Cy")
        context.delete(ada)
        context.processPendingChanges()

        let posted = PostedChanges.during(context.undo, in: context)

        let userInfo = try #require(posted.userInfos.last)
        #expect(userInfo[NSDeletedObjectsKey] as? Set<NSManagedObject> == [cy])
        #expect((userInfo[NSInsertedObjectsKey] as? Set<NSManagedObject>)?.contains(ada) == true)
    }

    @Test func fetchedResultsControllerFollowsUndoAndRedo() throws {
        let context = try seeded()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        try controller.performFetch()
        let names = { controller.fetchedObjects?.map { $0.value(forKey: "name") as? String } ?? [] }

        let ada = try fetchOne("Person", named: "Ada", in: context)
        context.insertPerson("Cy")
        ada.setValue("Zed", forKey: "name")
        context.processPendingChanges()
        #expect(names() == ["Bo", "Cy", "Zed"])

        context.undo()
        #expect(names() == ["Ada", "Bo"])
        context.redo()
        #expect(names() == ["Bo", "Cy", "Zed"])
    }
}
