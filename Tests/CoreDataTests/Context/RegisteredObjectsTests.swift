@testable import CoreData
import Foundation
import Testing

/// `RegisteredObjects`, the context's table of objects found by what names them: linear probing
/// with removal by shifting back, so every object stays reachable however the table grew and
/// whatever was removed before it.
@Suite struct RegisteredObjectsTests {
    let directory = TemporaryDirectory()

    /// `count` stored venues' objects (faults of permanent IDs 1...count) and the store.
    func storedVenues(_ count: Int) throws -> (objects: [NSManagedObject], store: NSPersistentStore) {
        let container = try venueContainer(rows: 0, in: directory)
        let store = container.persistentStoreCoordinator.persistentStores[0]
        let entity = container.managedObjectModel.entitiesByName["Venue"]!
        let objects = (1...Int64(count)).map { key in
            let object = NSManagedObject(entity: entity, insertInto: nil)
            object.becomeFault(identifiedBy: NSManagedObjectID(entity: entity, primaryKey: key, store: store))
            return object
        }
        return (objects, store)
    }

    @Test func everyObjectIsFoundAfterGrowingAndAfterEachRemoval() throws {
        let (objects, _) = try storedVenues(3_000)
        var table = RegisteredObjects()
        for object in objects { table.insert(object) }
        #expect(table.count == 3_000)
        #expect(objects.allSatisfy { table[$0.objectID] === $0 })

        var generator = SplitMix64(seed: 14)
        var remaining = objects.shuffled(using: &generator)
        while remaining.count > 1_000 {
            let removed = remaining.removeLast()
            #expect(table.removeValue(forKey: removed.objectID) === removed)
            #expect(table[removed.objectID] == nil)
            if remaining.count % 250 == 0 {
                #expect(remaining.allSatisfy { table[$0.objectID] === $0 }, "an object was lost behind a removal")
            }
        }
        #expect(table.count == 1_000)
        #expect(Set(table.objects.map(ObjectIdentifier.init)) == Set(remaining.map(ObjectIdentifier.init)))
    }

    @Test func aTemporaryAndAPermanentIDWithTheSameNumberNameDifferentObjects() throws {
        let (objects, store) = try storedVenues(1)
        let entity = objects[0].entity
        let new = NSManagedObject(entity: entity, insertInto: nil)
        let temporaryNumber = new.registrationName.key
        let stored = NSManagedObject(entity: entity, insertInto: nil)
        stored.becomeFault(identifiedBy: NSManagedObjectID(entity: entity, primaryKey: temporaryNumber, store: store))

        var table = RegisteredObjects()
        table.insert(new)
        table.insert(stored)
        #expect(table.count == 2)
        #expect(table[new.objectID] === new && table[stored.objectID] === stored)
        table.remove(new)
        #expect(table[new.objectID] == nil && table[stored.objectID] === stored)
    }

    @Test func insertingUnderANameTakenReplacesTheObject() throws {
        let (objects, store) = try storedVenues(2)
        let twin = NSManagedObject(entity: objects[1].entity, insertInto: nil)
        twin.becomeFault(identifiedBy: NSManagedObjectID(entity: objects[1].entity, primaryKey: 2, store: store))

        var table = RegisteredObjects()
        for object in objects { table.insert(object) }
        table.insert(twin)
        #expect(table.count == 2)
        #expect(table[objects[1].objectID] === twin)
        #expect(table[objects[0].objectID] === objects[0])
    }

    @Test func aContextFindsObjectsAcrossSavesDeletionsAndResets() throws {
        let container = try venueContainer(rows: 0, in: directory)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let venues = (0..<500).map { number in
                let venue = NSEntityDescription.insertNewObject(forEntityName: "Venue", into: context)
                venue.setValue("Venue \(number)", forKey: "name")
                return venue
            }
            let temporaryIDs = venues.map(\.objectID)
            try context.save()
            // Each object moved from its temporary ID to its permanent one.
            #expect(temporaryIDs.allSatisfy { context.registeredObject(for: $0) == nil })
            #expect(venues.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })

            let (deleted, kept) = (stride(from: 0, to: 500, by: 10).map { venues[$0] }, venues.indices.filter { $0 % 10 != 0 }.map { venues[$0] })
            deleted.forEach(context.delete)
            try context.save()
            #expect(context.registeredObjects.count == 450)
            #expect(deleted.allSatisfy { context.registeredObject(for: $0.objectID) == nil })
            #expect(kept.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })

            context.reset()
            #expect(context.registeredObjects.isEmpty)
            let again = try context.fetch(venuesByTipsDescending(batchSize: 100))
            #expect(again.count == 450 && context.registeredObjects.count == 450)
            #expect(again.allSatisfy { context.object(with: $0.objectID) === $0 })
        }
    }
}
