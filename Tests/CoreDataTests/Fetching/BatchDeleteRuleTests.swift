import CoreData
import Foundation
import Testing

/// Batch deletes honour the model's delete rules in the store, without loading objects:
/// cascade removes the destinations too, nullify leaves them pointing at nothing, and a deny
/// rule with destinations refuses the whole request, leaving every row in place.
@Suite struct BatchDeleteRuleTests {
    let directory = TemporaryDirectory()

    /// Owners with pets (cascade, and on to each pet's toys), a car (nullify) and loans (deny);
    /// a pet's microchip denies the pet's deletion.
    static func model() -> NSManagedObjectModel {
        NSManagedObjectModel(entities: [
            NSEntityDescription(name: "Owner", properties: [
                NSAttributeDescription(name: "name", type: .stringAttributeType),
                NSRelationshipDescription(name: "pets", destination: "Pet", toMany: true, inverse: "owner", deleteRule: .cascadeDeleteRule),
                NSRelationshipDescription(name: "car", destination: "Car", inverse: "driver", deleteRule: .nullifyDeleteRule),
                NSRelationshipDescription(name: "loans", destination: "Loan", toMany: true, inverse: "borrower", deleteRule: .denyDeleteRule),
            ]),
            NSEntityDescription(name: "Pet", properties: [
                NSAttributeDescription(name: "name", type: .stringAttributeType),
                NSRelationshipDescription(name: "owner", destination: "Owner", inverse: "pets"),
                NSRelationshipDescription(name: "toys", destination: "Toy", toMany: true, inverse: "pet", deleteRule: .cascadeDeleteRule),
                NSRelationshipDescription(name: "chip", destination: "Chip", inverse: "pet", deleteRule: .denyDeleteRule),
            ]),
            NSEntityDescription(name: "Toy", properties: [
                NSAttributeDescription(name: "name", type: .stringAttributeType),
                NSRelationshipDescription(name: "pet", destination: "Pet", inverse: "toys"),
            ]),
            NSEntityDescription(name: "Car", properties: [
                NSAttributeDescription(name: "name", type: .stringAttributeType),
                NSRelationshipDescription(name: "driver", destination: "Owner", inverse: "car"),
            ]),
            NSEntityDescription(name: "Loan", properties: [
                NSAttributeDescription(name: "name", type: .stringAttributeType),
                NSRelationshipDescription(name: "borrower", destination: "Owner", inverse: "loans"),
            ]),
            NSEntityDescription(name: "Chip", properties: [
                NSAttributeDescription(name: "name", type: .stringAttributeType),
                NSRelationshipDescription(name: "pet", destination: "Pet", inverse: "chip"),
            ]),
        ])
    }

    /// The model's entities, each of whose rows has a name.
    static let entities = ["Owner", "Pet", "Toy", "Car", "Loan", "Chip"]

    /// Ann: pets Rex (toys Ball, Bone) and Tom (toy Mouse), car Ann's car.
    /// Bob: pet Fido (toy Rope). Carl: a loan, car Carl's car. Dan: pet Chipper with a chip.
    func container(_ storeType: String) throws -> NSPersistentContainer {
        let container = try makeContainer(model: Self.model(), storeURL: directory.file("Owners.sqlite"), type: storeType)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            func make(_ entity: String, _ name: String) -> NSManagedObject {
                let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
                object.setValue(name, forKey: "name")
                return object
            }
            func pet(_ name: String, of owner: NSManagedObject, toys: [String]) -> NSManagedObject {
                let pet = make("Pet", name)
                pet.setValue(owner, forKey: "owner")
                for toy in toys { make("Toy", toy).setValue(pet, forKey: "pet") }
                return pet
            }
            let ann = make("Owner", "Ann"), bob = make("Owner", "Bob"), carl = make("Owner", "Carl"), dan = make("Owner", "Dan")
            _ = pet("Rex", of: ann, toys: ["Ball", "Bone"])
            _ = pet("Tom", of: ann, toys: ["Mouse"])
            _ = pet("Fido", of: bob, toys: ["Rope"])
            make("Chip", "Chip 1").setValue(pet("Chipper", of: dan, toys: []), forKey: "pet")
            make("Car", "Ann's car").setValue(ann, forKey: "driver")
            make("Car", "Carl's car").setValue(carl, forKey: "driver")
            make("Loan", "Carl's loan").setValue(carl, forKey: "borrower")
            try context.save()
        }
        return container
    }

    /// The names of every entity's rows, sorted, read by a fresh context.
    func names(in container: NSPersistentContainer) throws -> [String: [String]] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            var names: [String: [String]] = [:]
            for entity in Self.entities {
                names[entity] = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: entity)).compactMap { $0.value(forKey: "name") as? String }.sorted()
            }
            return names
        }
    }

    /// The IDs of the named objects of `entity`.
    func ids(_ entity: String, named names: [String], in container: NSPersistentContainer) throws -> [NSManagedObjectID] {
        let request = NSFetchRequest<NSManagedObjectID>(entityName: entity)
        request.resultType = .managedObjectIDResultType
        request.predicate = NSPredicate(format: "name IN %@", names)
        let found = try container.newBackgroundContext().fetch(request)
        #expect(found.count == names.count, "\(entity) \(names)")
        return found
    }

    /// What `read` finds on the object of `entity` named `name`, in a fresh context.
    func read<T>(_ entity: String, named name: String, in container: NSPersistentContainer, _ read: (NSManagedObject) -> T) throws -> T {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: entity)
            request.predicate = NSPredicate(format: "name == %@", name)
            return read(try #require(try context.fetch(request).first))
        }
    }

    /// How many destinations the to-many `key` of the object of `entity` named `name` has.
    func count(_ key: String, of entity: String, named name: String, in container: NSPersistentContainer) throws -> Int? {
        try read(entity, named: name, in: container) { ($0.value(forKey: key) as? NSSet)?.count }
    }

    /// The name of the destination of the to-one `key` of the object of `entity` named `name`.
    func destinationName(_ key: String, of entity: String, named name: String, in container: NSPersistentContainer) throws -> String? {
        try read(entity, named: name, in: container) { ($0.value(forKey: key) as? NSManagedObject)?.value(forKey: "name") as? String }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func cascadeRemovesTheDestinationsAndTheirCascadesButNothingElse(storeType: String) throws {
        let container = try container(storeType)
        let delete = NSBatchDeleteRequest(objectIDs: try ids("Owner", named: ["Ann"], in: container))
        delete.resultType = .resultTypeCount
        #expect((try container.newBackgroundContext().execute(delete) as? NSBatchDeleteResult)?.result as? Int == 1)

        let names = try names(in: container)
        #expect(names["Owner"] == ["Bob", "Carl", "Dan"])
        #expect(names["Pet"] == ["Chipper", "Fido"], "Rex and Tom went with Ann")
        #expect(names["Toy"] == ["Rope"], "and their toys with them")
        #expect(names["Chip"] == ["Chip 1"] && names["Loan"] == ["Carl's loan"])
        #expect(try count("toys", of: "Pet", named: "Fido", in: container) == 1)
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func nullifyKeepsTheDestinationPointingAtNothing(storeType: String) throws {
        let container = try container(storeType)
        _ = try container.newBackgroundContext().execute(NSBatchDeleteRequest(objectIDs: try ids("Owner", named: ["Ann"], in: container)))
        #expect(try names(in: container)["Car"] == ["Ann's car", "Carl's car"])
        #expect(try read("Car", named: "Ann's car", in: container) { $0.value(forKey: "driver") } == nil)
        #expect(try destinationName("driver", of: "Car", named: "Carl's car", in: container) == "Carl")

        // Deleting the destination of a to-many removes it from its owner's set.
        _ = try container.newBackgroundContext().execute(NSBatchDeleteRequest(objectIDs: try ids("Pet", named: ["Fido"], in: container)))
        #expect(try count("pets", of: "Owner", named: "Bob", in: container) == 0)
        #expect(try names(in: container)["Toy"] == [], "Fido's rope cascaded")
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func denyWithDestinationsRefusesTheWholeRequestAndLeavesEveryRow(storeType: String) throws {
        let container = try container(storeType)
        let before = try names(in: container)
        #expect(before.values.map(\.count).reduce(0, +) == 16)

        // Carl first, so a store deleting from the back reaches him after Ann's cascade has run.
        let owners = try ids("Owner", named: ["Carl"], in: container) + ids("Owner", named: ["Ann", "Bob"], in: container)
        for request in [NSBatchDeleteRequest(objectIDs: owners),
                        NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Owner"))] {
            let error = #expect(throws: NSError.self) { try container.newBackgroundContext().execute(request) }
            #expect(error?.code == NSValidationRelationshipDeniedDeleteError)
            #expect(try names(in: container) == before)
            #expect(try count("pets", of: "Owner", named: "Ann", in: container) == 2)
            #expect(try destinationName("driver", of: "Car", named: "Ann's car", in: container) == "Ann")
        }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func aDenyRuleReachedThroughACascadeRefusesTheDelete(storeType: String) throws {
        let container = try container(storeType)
        let before = try names(in: container)
        let delete = NSBatchDeleteRequest(objectIDs: try ids("Owner", named: ["Dan", "Bob"], in: container))
        let error = #expect(throws: NSError.self) { try container.newBackgroundContext().execute(delete) }
        #expect(error?.code == NSValidationRelationshipDeniedDeleteError)
        #expect(try names(in: container) == before, "Dan's pet Chipper has a chip, so neither Dan nor Bob is deleted")
        #expect(try count("pets", of: "Owner", named: "Dan", in: container) == 1)
        #expect(try destinationName("pet", of: "Chip", named: "Chip 1", in: container) == "Chipper")
    }
}
