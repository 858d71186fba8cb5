import CoreData
import Foundation
import Testing

/// Under a uniqueness constraint nil values do not conflict with each other, as NULLs in an
/// SQLite unique index.
@Suite struct NilUniquenessTests {
    let directory = TemporaryDirectory()

    @Test func severalObjectsWithANilConstrainedAttributeSave() throws {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite"))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for age in 1...3 {
                let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
                person.setValue(Int64(age), forKey: "age")
            }
            try context.save()
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            person.setValue(Int64(4), forKey: "age")
            try context.save()
        }
        #expect(try context.storedPeople().count == 4)
    }

    @Test func aNilPartOfACompoundConstraintConflictsWithNothing() throws {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite"))
        let context = container.newBackgroundContext()
        let count = try context.performAndWait {
            for label in ["x", "y"] {
                let badge = NSEntityDescription.insertNewObject(forEntityName: "Badge", into: context)
                badge.setValue("a", forKey: "group")
                badge.setValue(label, forKey: "label")
            }
            try context.save()
            return try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Badge"))
        }
        #expect(count == 2)
    }

    @Test func equalNonNilValuesStillConflict() throws {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite"))
        let context = container.newBackgroundContext()
        let error = context.performAndWait { () -> NSError? in
            context.insertPerson("Ada")
            context.insertPerson("Ada")
            do { try context.save(); return nil } catch { return error as NSError }
        }
        #expect(error?.code == NSManagedObjectConstraintMergeError)
    }
}
