import CoreData
import Foundation
import Testing

/// Uniqueness constraints at save, resolved by each merge policy: a new object colliding with a
/// stored row, several new duplicates in one save, compound constraints, and edits into a
/// collision.
@Suite struct UniquenessConstraintTests {
    let directory = TemporaryDirectory()

    /// A store holding Ada (30, "A", pet "Old"), and a fresh context with `policy`.
    func seeded(_ policy: Any) throws -> (NSPersistentContainer, NSManagedObjectContext) {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite"))
        let seeder = container.newBackgroundContext()
        try seeder.performAndWait {
            seeder.insertPerson("Ada", age: 30, nickname: "A", pets: ["Old"])
            try seeder.save()
        }
        let context = container.newBackgroundContext()
        context.mergePolicy = policy
        return (container, context)
    }

    func storedPeople(_ container: NSPersistentContainer) throws -> [PersonRecord] {
        try container.newBackgroundContext().storedPeople()
    }

    // MARK: NSErrorMergePolicy

    @Test func errorPolicyThrows133021ListingTheConflictAndChangesNothing() throws {
        let (container, context) = try seeded(NSErrorMergePolicy)
        let error = context.performAndWait { () -> NSError? in
            context.insertPerson("Ada", age: 31)
            do { try context.save(); return nil } catch { return error as NSError }
        }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.code == NSManagedObjectConstraintMergeError)
        let conflicts = try #require(error?.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSConstraintConflict])
        #expect(conflicts.count == 1)
        let conflict = try #require(conflicts.first)
        #expect(conflict.constraint == ["name"])
        #expect(conflict.constraintValues["name"] as? String == "Ada")
        #expect(conflict.conflictingObjects.count == 1)
        #expect(conflict.databaseObject != nil)
        #expect(conflict.databaseSnapshot?["age"] as? NSNumber == 30)
        context.performAndWait {
            #expect(context.insertedObjects.count == 1, "the context keeps its changes")
            #expect(context.insertedObjects.first?.string("name") == "Ada")
        }
        #expect(try storedPeople(container) == [PersonRecord(name: "Ada", age: 30, nickname: "A", pets: ["Old"])])
    }

    @Test func errorPolicyReportsDuplicatesAmongTheObjectsBeingSaved() throws {
        let (container, context) = try seeded(NSErrorMergePolicy)
        let error = context.performAndWait { () -> NSError? in
            context.insertPerson("Bo", age: 1)
            context.insertPerson("Bo", age: 2)
            do { try context.save(); return nil } catch { return error as NSError }
        }
        #expect(error?.code == NSManagedObjectConstraintMergeError)
        let conflict = try #require((error?.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSConstraintConflict])?.first)
        #expect(conflict.databaseObject == nil)
        #expect(conflict.conflictingObjects.count == 2)
        #expect(try storedPeople(container).map(\.name) == ["Ada"])
    }

    // MARK: NSMergeByPropertyObjectTrumpMergePolicy

    @Test func objectTrumpUpsertsIntoTheStoredRow() throws {
        let (container, context) = try seeded(NSMergeByPropertyObjectTrumpMergePolicy)
        let storedID = try idOfAda(container)
        try context.performAndWait {
            let ada = context.insertPerson("Ada", age: 31, pets: ["New"])
            try context.save()
            // The new object took over the stored row's identity.
            #expect(ada.objectID == storedID)
            #expect(!ada.isInserted && !ada.isDeleted)
            #expect(ada.managedObjectContext === context)
        }
        #expect(try storedPeople(container) == [PersonRecord(name: "Ada", age: 31, nickname: "A", pets: ["New", "Old"])])
    }

    @Test func objectTrumpMergesIntoAnAlreadyRegisteredStoredObjectAndRepointsRelationships() throws {
        let (container, context) = try seeded(NSMergeByPropertyObjectTrumpMergePolicy)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            let existing = try #require(try context.fetch(request).first)
            let duplicate = context.insertPerson("Ada", nickname: "Ace", pets: ["New"])
            let pet = try #require((duplicate.value(forKey: "pets") as? NSSet)?.anyObject() as? NSManagedObject)
            try context.save()
            #expect(duplicate.isDeleted && duplicate.managedObjectContext == nil)
            #expect(pet.value(forKey: "owner") as? NSManagedObject === existing)
            #expect(existing.string("nickname") == "Ace")
            #expect(existing.int64("age") == 30, "age was not set on the new object")
        }
        #expect(try storedPeople(container) == [PersonRecord(name: "Ada", age: 30, nickname: "Ace", pets: ["New", "Old"])])
    }

    // MARK: NSMergeByPropertyStoreTrumpMergePolicy

    @Test func storeTrumpKeepsTheStoredValuesAndDropsTheDuplicate() throws {
        let (container, context) = try seeded(NSMergeByPropertyStoreTrumpMergePolicy)
        try context.performAndWait {
            context.insertPerson("Ada", age: 31, nickname: "B", pets: ["New"])
            context.insertPerson("Cy", age: 5)
            try context.save()
        }
        #expect(try storedPeople(container) == [
            PersonRecord(name: "Ada", age: 30, nickname: "A", pets: ["New", "Old"]),
            PersonRecord(name: "Cy", age: 5, nickname: nil),
        ])
    }

    // MARK: NSOverwriteMergePolicy

    @Test func overwriteReplacesTheStoredRowWithTheSavingObject() throws {
        let (container, context) = try seeded(NSOverwriteMergePolicy)
        try context.performAndWait {
            context.insertPerson("Ada", age: 31)
            try context.save()
        }
        // The nickname the new object lacks is gone; stored pets keep pointing at the row.
        #expect(try storedPeople(container) == [PersonRecord(name: "Ada", age: 31, nickname: nil, pets: ["Old"])])
    }

    // MARK: NSRollbackMergePolicy

    @Test func rollbackDiscardsTheSavingObjectsConflictingChanges() throws {
        let (container, context) = try seeded(NSRollbackMergePolicy)
        try context.performAndWait {
            context.insertPerson("Ada", age: 31, nickname: "B")
            context.insertPerson("Bo", age: 7)
            try context.save()
        }
        #expect(try storedPeople(container) == [
            PersonRecord(name: "Ada", age: 30, nickname: "A", pets: ["Old"]),
            PersonRecord(name: "Bo", age: 7, nickname: nil),
        ])
        // An existing object renamed into a collision keeps its stored name; its other edits stay.
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.predicate = NSPredicate(format: "name == %@", "Bo")
            let bo = try #require(try context.fetch(request).first)
            bo.setValue("Ada", forKey: "name")
            bo.setValue(8, forKey: "age")
            try context.save()
            #expect(bo.string("name") == "Bo")
        }
        #expect(try storedPeople(container).map(\.description) == ["Ada(30, A, [\"Old\"])", "Bo(8, nil, [])"])
    }

    // MARK: Duplicates inside one save, under every policy

    @Test(arguments: [
        (NSMergePolicyType.mergeByPropertyObjectTrumpMergePolicyType, Int64(3)),
        (.overwriteMergePolicyType, 3),
        (.mergeByPropertyStoreTrumpMergePolicyType, 1),
        (.rollbackMergePolicyType, 1),
    ])
    func duplicatesInsideOneSaveBecomeOneRow(policy: NSMergePolicyType, expectedAge: Int64) throws {
        let (container, context) = try seeded(NSMergePolicy(merge: policy))
        try context.performAndWait {
            let first = context.insertPerson("Dee", age: 1, pets: ["P1"])
            context.insertPerson("Dee", age: 2, pets: ["P2"])
            context.insertPerson("Dee", age: 3)
            try context.save()
            #expect(!first.isDeleted, "the first inserted survives")
            #expect(first.managedObjectContext === context)
        }
        let dee = try storedPeople(container).filter { $0.name == "Dee" }
        #expect(dee == [PersonRecord(name: "Dee", age: expectedAge, nickname: nil, pets: ["P1", "P2"])])
    }

    @Test(arguments: [
        NSMergePolicyType.mergeByPropertyObjectTrumpMergePolicyType, .overwriteMergePolicyType,
        .mergeByPropertyStoreTrumpMergePolicyType, .rollbackMergePolicyType,
    ])
    func twoDuplicatesOfAStoredRowInOneSaveMergeIntoIt(policy: NSMergePolicyType) throws {
        let (container, context) = try seeded(NSMergePolicy(merge: policy))
        try context.performAndWait {
            context.insertPerson("Ada", age: 40, pets: ["P1"])
            context.insertPerson("Ada", age: 41, pets: ["P2"])
            try context.save()
        }
        let people = try storedPeople(container)
        #expect(people.count == 1)
        #expect(people.first?.pets == ["Old", "P1", "P2"])
        let storeWins = policy == .mergeByPropertyStoreTrumpMergePolicyType || policy == .rollbackMergePolicyType
        #expect(people.first?.age == (storeWins ? 30 : 41))
    }

    // MARK: Compound constraints

    @Test func compoundConstraintsCompareAllTheirProperties() throws {
        let (container, context) = try seeded(NSErrorMergePolicy)
        func badge(_ group: String, _ number: Int64, _ label: String) {
            let badge = NSEntityDescription.insertNewObject(forEntityName: "Badge", into: context)
            badge.setValue(group, forKey: "group")
            badge.setValue(number, forKey: "number")
            badge.setValue(label, forKey: "label")
        }
        try context.performAndWait {
            badge("a", 1, "first")
            try context.save()
            badge("a", 2, "same group")
            badge("b", 1, "same number")
            try context.save()
            badge("a", 1, "duplicate")
            #expect(throws: (any Error).self) { try context.save() }
            context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
            try context.save()
        }
        let reader = container.newBackgroundContext()
        let labels = try reader.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Badge")
            request.sortDescriptors = [NSSortDescriptor(key: "group", ascending: true), NSSortDescriptor(key: "number", ascending: true)]
            return try reader.fetch(request).compactMap { $0.string("label") }
        }
        #expect(labels == ["duplicate", "same group", "same number"])
    }

    @Test func objectsDeletedOrRenamedInTheSameSaveFreeTheirValues() throws {
        let (container, context) = try seeded(NSErrorMergePolicy)
        try context.performAndWait {
            let ada = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")).first)
            ada.setValue("Ada Senior", forKey: "name")
            context.insertPerson("Ada", age: 1)
            try context.save()
        }
        #expect(try storedPeople(container).compactMap(\.name) == ["Ada", "Ada Senior"])
    }

    func idOfAda(_ container: NSPersistentContainer) throws -> NSManagedObjectID {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")).first).objectID
        }
    }
}
