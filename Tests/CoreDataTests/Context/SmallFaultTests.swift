import CoreData
import Foundation
import Testing

/// A fault holds its ID (or, in a batched fetch, where to make it) and its context and nothing
/// else until it fires (issue 14's small faults): a batched fetch of a million rows makes a
/// million of them. Sizes are the bytes an instance of the object's class asks the allocator
/// for, compared with a 40-byte instance's: glibc's `malloc_usable_size` of the object itself
/// was read at first, but glibc hands out a larger block when the rest of a free one would be
/// too small to keep (seen as 56 bytes for a 40-byte fault in one CI run), so it depends on
/// what was freed before.
@Suite struct SmallFaultTests {
    let directory = TemporaryDirectory()

    func heapBytes(_ object: AnyObject) -> Int {
        instanceSize(of: type(of: object))
    }

    @Test func aBatchedFaultIsOneFortyByteBlockAndMakesItsIDOnlyWhenAsked() throws {
        let container = try venueContainer(rows: 120, in: directory)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let venues = try context.fetch(venuesByTipsDescending(batchSize: 50))
            let fault = venues[60]
            #expect(fault.isFault)
            #expect(heapBytes(FortyByteInstance()) == 40, "the size is read from the right field")
            #expect(heapBytes(fault) <= heapBytes(FortyByteInstance()))
            // Its ID is read off the batch's key list each time it is asked for: equal IDs, not
            // one kept instance, so the fault holds no ID of its own.
            let (first, second) = (fault.objectID, fault.objectID)
            #expect(first == second && first !== second)
            #expect(context.registeredObject(for: first) === fault && context.object(with: second) === fault)

            // It fires with its batch and holds its values from then on.
            #expect(fault.value(forKey: "tips") as? Int == 59)
            #expect(!fault.isFault)
            #expect(fault.objectID === fault.objectID, "a fired fault keeps the ID it made")
            #expect(venues[99].isFault, "a member of the same batch waits for its own first touch")
            #expect(venues[99].value(forKey: "name") as? String == "Venue 020")
            #expect(!venues[99].isFault)
        }
    }

    /// Sets every venue's tips to 1,000 in the store, telling no context.
    func rewriteTips(of container: NSPersistentContainer) throws {
        let update = NSBatchUpdateRequest(entityName: "Venue")
        update.propertiesToUpdate = ["tips": 1_000]
        _ = try container.newBackgroundContext().execute(update)
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func anUnbatchedFetchsFaultFiresFromTheRowItsFetchRead(storeType: String) throws {
        let container = try venueContainer(rows: 40, in: directory, type: storeType)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let venues = try context.fetch(venuesByTipsDescending(batchSize: 0))
            #expect(venues.count == 40 && venues.allSatisfy(\.isFault))
            #expect(venues[7].objectID === venues[7].objectID, "its ID is the one its row holds")
            try rewriteTips(of: container)
            #expect(venues.map { $0.value(forKey: "tips") as? Int } == (0..<40).reversed().map { $0 },
                    "each fault fires with the row read by its fetch, not the store's current one")
            #expect(venues.allSatisfy { !$0.isFault })
        }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func aRefreshOrALaterFetchReplacesTheRowAFaultWasWaitingFor(storeType: String) throws {
        let container = try venueContainer(rows: 3, in: directory, type: storeType)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let first = try context.fetch(venuesByTipsDescending(batchSize: 0))
            try rewriteTips(of: container)
            context.refresh(first[0], mergeChanges: false)
            #expect(first[0].isFault)
            #expect(first[0].value(forKey: "tips") as? Int == 1_000, "a refreshed fault reads the store again")

            let second = try context.fetch(venuesByTipsDescending(batchSize: 0))
            #expect(second[1] === first[1] && second[1].isFault, "a fetch returns the fault already registered")
            #expect(first[1].value(forKey: "tips") as? Int == 1_000, "the later fetch's row replaced the earlier one")
            #expect(first[2].value(forKey: "tips") as? Int == 1_000)
        }
    }

    @Test func aFaultMadeFromAnIDFiresOnFirstTouch() throws {
        let container = try venueContainer(rows: 3, in: directory)
        let id = try container.viewContext.fetch(venuesByTipsDescending(batchSize: 0))[0].objectID
        let context = container.newBackgroundContext()
        context.performAndWait {
            let fault = context.object(with: id)
            #expect(fault.isFault && !fault.hasChanges && !fault.isInserted && !fault.isDeleted)
            #expect(heapBytes(fault) <= heapBytes(FortyByteInstance()))
            #expect(fault.value(forKey: "name") as? String == "Venue 002")
            #expect(!fault.isFault && !fault.hasChanges)
        }
    }

    @Test func aRefreshedObjectTurnsBackIntoAFaultAndReadsTheStoreAgain() throws {
        let container = try venueContainer(rows: 2, in: directory)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let venue = try context.fetch(venuesByTipsDescending(batchSize: 0))[0]
            venue.setValue(500, forKey: "tips")
            #expect(venue.isUpdated)
            context.refresh(venue, mergeChanges: false)
            #expect(venue.isFault && !venue.hasChanges)
            #expect(venue.committedValues(forKeys: ["tips"])["tips"] as? Int == 1, "the row it was read from is kept")
            #expect(venue.value(forKey: "tips") as? Int == 1)
            #expect(!venue.isFault)
        }
    }

    @Test func aNewObjectOutsideAContextIsNeitherAFaultNorInsertedUntilInserted() throws {
        let container = try venueContainer(rows: 0, in: directory)
        let entity = container.managedObjectModel.entitiesByName["Venue"]!
        let venue = NSManagedObject(entity: entity, insertInto: nil)
        #expect(!venue.isFault && !venue.isInserted && !venue.hasChanges)
        #expect(venue.value(forKey: "name") == nil)
        venue.setValue("Loose", forKey: "name")
        #expect(venue.value(forKey: "name") as? String == "Loose")

        let context = container.viewContext
        context.insert(venue)
        #expect(venue.isInserted && !venue.isFault)
        try context.save()
        #expect(!venue.isInserted && !venue.hasChanges && !venue.objectID.isTemporaryID)
        let count = try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Venue"))
        #expect(count == 1)
    }
}

/// A class instance of 40 bytes: the header's two words and three stored words.
private final class FortyByteInstance {
    var first = 0, second = 0, third = 0
}

/// The instance size a Swift class's metadata records (`InstanceSize`, after the kind, the
/// superclass, the flags and the instance address point, in the layout without Objective-C
/// interoperation that Linux uses): what the runtime asks the allocator for per instance.
private func instanceSize(of type: AnyClass) -> Int {
    Int(unsafeBitCast(type, to: UnsafeRawPointer.self).load(fromByteOffset: 24, as: UInt32.self))
}
