import CoreData
import Foundation
import Testing

/// `NSBatchInsertRequest` in its handler forms, its all-or-nothing type checks, and how its
/// object IDs, merged as a remote save's inserts, reach live contexts and controllers.
@Suite struct BatchInsertTests {
    let directory = TemporaryDirectory()

    /// Every venue as "name: tips", sorted, as a fresh context reads them.
    func storedVenues(in container: NSPersistentContainer) throws -> [String] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Venue")).map { venue in
                "\(venue.value(forKey: "name") as? String ?? "nil"): \(venue.value(forKey: "tips") as? Int ?? -1)"
            }.sorted()
        }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func managedObjectHandlerStoresEachFilledObjectUntilItReturnsTrue(storeType: String) throws {
        let container = try venueContainer(rows: 0, in: directory, type: storeType)
        var calls = 0
        let insert = NSBatchInsertRequest(entityName: "Venue", managedObjectHandler: { venue in
            calls += 1
            guard calls <= 4 else { return true }
            venue.setValue("Handled \(calls)", forKey: "name")
            if calls.isMultiple(of: 2) { venue.setValue(calls * 10, forKey: "tips") }
            return false
        })
        insert.resultType = .objectIDs
        let ids = try #require((try container.newBackgroundContext().execute(insert) as? NSBatchInsertResult)?.result as? [NSManagedObjectID])
        #expect(calls == 5, "the object handed over with the call that returned true is not stored")
        #expect(ids.count == 4 && ids.allSatisfy { !$0.isTemporaryID })
        #expect(try storedVenues(in: container) == ["Handled 1: 0", "Handled 2: 20", "Handled 3: 0", "Handled 4: 40"],
                "unset tips take the attribute's default")

        let context = container.newBackgroundContext()
        let favourites = try context.performAndWait { try ids.map { try context.existingObject(with: $0).value(forKey: "favorite") as? Bool } }
        #expect(favourites == [false, false, false, false])
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func dictionaryHandlerStoresTheValuesItFillsIn(storeType: String) throws {
        let container = try venueContainer(rows: 0, in: directory, type: storeType)
        var calls = 0
        let insert = NSBatchInsertRequest(entityName: "Venue", dictionaryHandler: { dictionary in
            calls += 1
            guard calls <= 3 else { return true }
            dictionary["name"] = "Dictionary \(calls)"
            dictionary["tips"] = calls * 100
            return false
        })
        insert.resultType = .count
        #expect((try container.newBackgroundContext().execute(insert) as? NSBatchInsertResult)?.result as? Int == 3)
        #expect(try storedVenues(in: container) == ["Dictionary 1: 100", "Dictionary 2: 200", "Dictionary 3: 300"])
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func aValueOfTheWrongTypeThrowsAndInsertsNothing(storeType: String) throws {
        let container = try venueContainer(rows: 3, in: directory, type: storeType)
        let before = try storedVenues(in: container)
        #expect(before.count == 3)
        let wrong: [[String: Any]] = [["name": "Bad tips", "tips": "many"], ["name": 42], ["name": "Bad flag", "favorite": "yes"]]
        for bad in wrong {
            // The good rows come first: none of them may be stored when a later one is refused.
            let rows: [[String: Any]] = [["name": "Good 1", "tips": 1], ["name": "Good 2"], bad]
            let context = container.newBackgroundContext()
            let error = #expect(throws: NSError.self, "\(bad)") { try context.execute(NSBatchInsertRequest(entityName: "Venue", objects: rows)) }
            #expect(error?.code == NSManagedObjectValidationError, "\(bad)")
            #expect(try storedVenues(in: container) == before, "\(bad)")
        }

        var calls = 0
        let handled = NSBatchInsertRequest(entityName: "Venue", managedObjectHandler: { venue in
            calls += 1
            guard calls <= 2 else { return true }
            venue.setValue(calls == 1 ? "Good" : "Bad", forKey: "name")
            if calls == 2 { venue.setValue("many", forKey: "tips") }
            return false
        })
        #expect(throws: NSError.self) { try container.newBackgroundContext().execute(handled) }
        #expect(try storedVenues(in: container) == before)
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func mergingTheInsertedIDsRegistersThemInALiveContextWithoutMakingThemUnsaved(storeType: String) throws {
        let container = try venueContainer(rows: 3, in: directory, type: storeType)
        let viewer = container.newBackgroundContext()
        #expect(try viewer.performAndWait { try viewer.fetch(NSFetchRequest<NSManagedObject>(entityName: "Venue")).count } == 3)

        let insert = NSBatchInsertRequest(entityName: "Venue", objects: [["name": "Batch A", "tips": 7], ["name": "Batch B", "tips": 8]])
        insert.resultType = .objectIDs
        let ids = try #require((try container.newBackgroundContext().execute(insert) as? NSBatchInsertResult)?.result as? [NSManagedObjectID])
        #expect(viewer.performAndWait { ids.allSatisfy { viewer.registeredObject(for: $0) == nil } })

        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSInsertedObjectsKey: ids], into: [viewer])
        try viewer.performAndWait {
            #expect(ids.allSatisfy { viewer.registeredObject(for: $0) != nil })
            #expect(ids.map { viewer.registeredObject(for: $0)?.value(forKey: "tips") as? Int } == [7, 8])
            #expect(!viewer.hasChanges && viewer.insertedObjects.isEmpty, "merged inserts are saved objects, not the context's own")
            let request = NSFetchRequest<NSManagedObject>(entityName: "Venue")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let fetched = try viewer.fetch(request)
            #expect(fetched.map { $0.value(forKey: "name") as? String } == ["Batch A", "Batch B", "Venue 000", "Venue 001", "Venue 002"])
            #expect(Array(fetched.prefix(2)) == ids.map { viewer.registeredObject(for: $0) }, "the fetch returns the merged instances")
        }
    }
}

/// A merged batch insert reaching a fetched results controller on the view context.
@MainActor @Suite struct BatchInsertControllerTests {
    let directory = TemporaryDirectory()

    /// Records the changes a controller reports.
    final class ChangeRecorder: NSFetchedResultsControllerDelegate {
        private(set) var insertions: [(name: String?, at: IndexPath?)] = []
        private(set) var otherChanges = 0

        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?,
                        for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
            guard type == .insert else { otherChanges += 1; return }
            insertions.append(((anObject as? NSManagedObject)?.value(forKey: "name") as? String, newIndexPath))
        }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func aMergedBatchInsertIsReportedAsInsertionsAtTheSortedPlaces(storeType: String) throws {
        let container = try venueContainer(rows: 4, in: directory, type: storeType)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Venue")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: container.viewContext,
                                                    sectionNameKeyPath: nil, cacheName: nil)
        try controller.performFetch()
        let recorder = ChangeRecorder()
        controller.delegate = recorder

        let insert = NSBatchInsertRequest(entityName: "Venue", objects: [["name": "Venue 005"], ["name": "Venue 001b"]])
        insert.resultType = .objectIDs
        let ids = try #require((try container.newBackgroundContext().execute(insert) as? NSBatchInsertResult)?.result as? [NSManagedObjectID])
        #expect(recorder.insertions.isEmpty && controller.fetchedObjects?.count == 4, "nothing reaches the controller before the merge")

        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSInsertedObjectsKey: ids], into: [container.viewContext])
        let reported = recorder.insertions.sorted { ($0.at?.row ?? -1) < ($1.at?.row ?? -1) }
        #expect(reported.map(\.name) == ["Venue 001b", "Venue 005"])
        #expect(reported.map(\.at) == [IndexPath(row: 2, section: 0), IndexPath(row: 5, section: 0)])
        #expect(recorder.otherChanges == 0)
        #expect(controller.fetchedObjects?.map { $0.value(forKey: "name") as? String }
                == ["Venue 000", "Venue 001", "Venue 001b", "Venue 002", "Venue 003", "Venue 005"])
    }
}
