import CoreData
import Testing

@MainActor @Suite struct ValidationTests {
    let directory = TemporaryDirectory()

    func model() -> NSManagedObjectModel {
        let name = NSAttributeDescription(name: "name", type: .stringAttributeType, optional: false)
        let rating = NSAttributeDescription(name: "rating", type: .doubleAttributeType)
        let owner = NSRelationshipDescription(name: "owner", destination: "Owner", inverse: "ties", deleteRule: .nullifyDeleteRule)
        let ties = NSRelationshipDescription(name: "ties", destination: "BowTie", toMany: true, inverse: "owner", deleteRule: .denyDeleteRule)
        return NSManagedObjectModel(entities: [
            NSEntityDescription(name: "BowTie", properties: [name, rating, NSAttributeDescription(name: "count", type: .integer16AttributeType), owner]),
            NSEntityDescription(name: "Owner", properties: [NSAttributeDescription(name: "name", type: .stringAttributeType), ties]),
        ])
    }

    func container() throws -> NSPersistentContainer {
        try makeContainer(model: model(), storeURL: directory.file("BowTies.sqlite"))
    }

    @Test func missingMandatoryValueThrows1570AndKeepsChanges() throws {
        let context = try container().viewContext
        let tie = NSEntityDescription.insertNewObject(forEntityName: "BowTie", into: context)
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSValidationMissingMandatoryPropertyError)
        #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "name")
        #expect(context.insertedObjects.contains(tie), "a failed save keeps the context's changes")
        tie.setValue("Blue", forKey: "name")
        try context.save()
        #expect(try container().viewContext.count(for: NSFetchRequest<NSManagedObject>(entityName: "BowTie")) == 1)
    }

    @Test func severalFailuresThrow1560WithDetails() throws {
        let context = try container().viewContext
        let tie = NSEntityDescription.insertNewObject(forEntityName: "BowTie", into: context)
        tie.setValue(40_000, forKey: "count")
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSValidationMultipleErrorsError)
        let codes = Set((error.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []).map(\.code))
        #expect(codes == [NSValidationMissingMandatoryPropertyError, NSValidationNumberTooLargeError])
    }

    @Test func denyRuleRefusesDeletingAnOwnerWithTies() throws {
        let context = try container().viewContext
        let owner = NSEntityDescription.insertNewObject(forEntityName: "Owner", into: context)
        let tie = NSEntityDescription.insertNewObject(forEntityName: "BowTie", into: context)
        tie.setValue("Red", forKey: "name")
        tie.setValue(owner, forKey: "owner")
        try context.save()
        context.delete(owner)
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSValidationRelationshipDeniedDeleteError)
        context.rollback()
        #expect(owner.isDeleted == false)
        #expect((owner.value(forKey: "ties") as? NSSet)?.count == 1)
    }

    @Test func nullifyRuleClearsTheInverseSide() throws {
        let context = try container().viewContext
        let owner = NSEntityDescription.insertNewObject(forEntityName: "Owner", into: context)
        let tie = NSEntityDescription.insertNewObject(forEntityName: "BowTie", into: context)
        tie.setValue("Red", forKey: "name")
        owner.mutableSetValue(forKey: "ties").add(tie)
        #expect(tie.value(forKey: "owner") as? NSManagedObject === owner, "inverse set from the to-many side")
        try context.save()
        context.delete(tie)
        try context.save()
        #expect((owner.value(forKey: "ties") as? NSSet)?.count == 0)
    }

    @Test func unknownKeyReadsNilAndMakesTheSaveThrow() throws {
        let context = try container().viewContext
        let tie = NSEntityDescription.insertNewObject(forEntityName: "BowTie", into: context)
        tie.setValue("Green", forKey: "name")
        #expect(tie.value(forKey: "colour") == nil)
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSManagedObjectValidationError)
        #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "colour")
    }
}
