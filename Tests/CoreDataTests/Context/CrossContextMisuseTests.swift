import CoreData
import Foundation
import Testing

/// Objects of two contexts used together: the call changes nothing and the next save throws a
/// clear error (133010 for relationships, as Apple's), instead of trapping or corrupting a graph.
@Suite struct CrossContextMisuseTests {
    let directory = TemporaryDirectory()

    /// Two contexts of one container; Ada (with pet "Old") saved through the first.
    func twoContexts() throws -> (NSPersistentContainer, NSManagedObjectContext, NSManagedObjectContext) {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("Misuse.sqlite"))
        let first = container.newBackgroundContext()
        try first.performAndWait {
            first.insertPerson("Ada", age: 30, pets: ["Old"])
            try first.save()
        }
        return (container, first, container.newBackgroundContext())
    }

    func saveError(_ context: NSManagedObjectContext) -> NSError? {
        context.performAndWait {
            do { try context.save(); return nil } catch { return error as NSError }
        }
    }

    func person(in context: NSManagedObjectContext) throws -> NSManagedObject {
        try context.performAndWait { try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")).first) }
    }

    @Test func settingAToOneToAnotherContextsObjectIsRefusedAndSaveThrows133010() throws {
        let (container, first, second) = try twoContexts()
        let foreignAda = try person(in: first)
        let pet = second.performAndWait {
            let pet = NSEntityDescription.insertNewObject(forEntityName: "Pet", into: second)
            pet.setValue("Stray", forKey: "name")
            pet.setValue(foreignAda, forKey: "owner")
            return pet
        }
        second.performAndWait { #expect(pet.value(forKey: "owner") == nil) }
        first.performAndWait { #expect((foreignAda.value(forKey: "pets") as? NSSet)?.count == 1) }
        let error = saveError(second)
        #expect(error?.code == NSManagedObjectExternalRelationshipError)
        #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "owner")
        // The error is thrown once; the context's own changes then save normally.
        #expect(saveError(second) == nil)
        #expect(try second.storedPeople() == [PersonRecord(name: "Ada", age: 30, nickname: nil, pets: ["Old"])])
        _ = container
    }

    @Test func addingAnotherContextsObjectToAToManyIsRefused() throws {
        let (_, first, second) = try twoContexts()
        let foreignAda = try person(in: first)
        let foreignPet = try first.performAndWait { try #require((foreignAda.value(forKey: "pets") as? NSSet)?.anyObject() as? NSManagedObject) }
        second.performAndWait {
            let bo = second.insertPerson("Bo")
            bo.mutableSetValue(forKey: "pets").add(foreignPet)
            #expect(bo.mutableSetValue(forKey: "pets").count == 0)
            bo.setValue(NSSet(array: [foreignPet]), forKey: "pets")
            #expect((bo.value(forKey: "pets") as? NSSet)?.count == 0)
        }
        first.performAndWait {
            #expect(foreignPet.value(forKey: "owner") as? NSManagedObject === foreignAda)
            #expect(!first.hasChanges)
        }
        let error = saveError(second)
        #expect(error?.code == NSValidationMultipleErrorsError)
        let details = error?.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []
        #expect(details.count == 2 && details.allSatisfy { $0.code == NSManagedObjectExternalRelationshipError })
    }

    @Test func anOrderedToManyAcrossContextsIsRefused() throws {
        let container = try makeContainer(model: TestModels.dogWalk(), storeURL: directory.file("Walks.sqlite"))
        let first = container.newBackgroundContext()
        let second = container.newBackgroundContext()
        let walk = first.performAndWait { Walk(context: first) }
        second.performAndWait {
            let dog = Dog(context: second)
            let walks = dog.mutableOrderedSetValue(forKey: "walks")
            walks.add(walk)
            #expect(walks.count == 0)
            #expect(dog.walks?.count == 0)
        }
        first.performAndWait { #expect(walk.dog == nil) }
        #expect(saveError(second)?.code == NSManagedObjectExternalRelationshipError)
    }

    @Test func insertingAnotherContextsObjectDoesNotTrapAndSaveThrows() throws {
        let (_, first, second) = try twoContexts()
        let object = first.performAndWait { first.insertPerson("Owned by first") }
        second.performAndWait {
            second.insert(object)
            #expect(second.insertedObjects.isEmpty)
        }
        #expect(object.managedObjectContext === first)
        let error = saveError(second)
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.code == NSCoreDataError)
        #expect(error?.localizedDescription.contains("another context") == true)
        first.performAndWait { #expect(first.insertedObjects.contains(object)) }
    }

    @Test func deletingAnotherContextsObjectIsRefusedAndSaveThrows() throws {
        let (container, first, second) = try twoContexts()
        let ada = try person(in: first)
        second.performAndWait {
            second.delete(ada)
            #expect(second.deletedObjects.isEmpty)
        }
        first.performAndWait { #expect(!ada.isDeleted) }
        #expect(saveError(second)?.code == NSCoreDataError)
        #expect(try container.newBackgroundContext().storedPeople().count == 1)
    }

    @Test func rollbackForgetsRecordedMisuse() throws {
        let (_, first, second) = try twoContexts()
        let ada = try person(in: first)
        second.performAndWait {
            second.delete(ada)
            second.rollback()
        }
        #expect(saveError(second) == nil)
    }
}
