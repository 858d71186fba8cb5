import CoreData
import Foundation
import Testing

/// `fetchBatched(_:)`: the results of `fetch(_:)`, with objects made a batch at a time as they
/// are read.
@Suite struct BatchedFetchResultsTests {
    let directory = TemporaryDirectory()

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func objectsAreMadeOneBatchAtATimeAndAreTheFetchedOnes(storeType: String) throws {
        let container = try venueContainer(rows: 120, in: directory, type: storeType)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let results = try context.fetchBatched(venuesByTipsDescending(batchSize: 50))
            #expect(results.count == 120 && results.batchSize == 50)
            #expect(results.madeBatchCount == 0 && context.registeredObjects.isEmpty, "nothing is made before it is read")

            #expect(results[3].value(forKey: "tips") as? Int == 116)
            #expect(results.madeBatchCount == 1 && context.registeredObjects.count == 50)
            #expect(results[119].value(forKey: "name") as? String == "Venue 000")
            #expect(results.madeBatchCount == 2 && context.registeredObjects.count == 70, "the middle batch is still unmade")

            let fetched = try context.fetch(venuesByTipsDescending(batchSize: 0))
            #expect(fetched.count == results.count)
            #expect(zip(fetched, results).allSatisfy { $0 === $1 }, "one instance per ID, in the same order")
            #expect(results.map { $0.value(forKey: "tips") as? Int } == (0..<120).reversed().map { $0 })
        }
    }

    @Test func aBatchReadsItsRowsWhenFirstTouchedNotWhenFetched() throws {
        let container = try venueContainer(rows: 100, in: directory)
        let context = container.newBackgroundContext()
        let results = try context.performAndWait { try context.fetchBatched(venuesByTipsDescending(batchSize: 50)) }
        #expect(context.performAndWait { results[0].value(forKey: "tips") as? Int } == 99)

        let bump = NSBatchUpdateRequest(entityName: "Venue")
        bump.propertiesToUpdate = ["tips": NSExpression(forFunction: "add:to:", arguments: [NSExpression(forKeyPath: "tips"), NSExpression(forConstantValue: 1000)])]
        _ = try container.newBackgroundContext().execute(bump)

        let tips = context.performAndWait { [1, 49, 50, 99].map { results[$0].value(forKey: "tips") as? Int } }
        #expect(tips == [98, 50, 1049, 1000], "the second batch is read after the update, at its first touch")
    }

    @Test func subentitiesComeBackAsTheirOwnEntitiesAndClasses() throws {
        let container = try makeContainer(model: TestModels.library(), storeURL: directory.file("Library.sqlite"))
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            for index in 0..<9 {
                let item = NSEntityDescription.insertNewObject(forEntityName: index % 3 == 0 ? "Film" : "Book", into: writer)
                item.setValue("Title \(index)", forKey: "title")
            }
            try writer.save()
        }
        let context = container.newBackgroundContext()
        let entities = try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
            request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
            request.fetchBatchSize = 4
            return try context.fetchBatched(request).map { "\($0.entity.name ?? "")/\($0.value(forKey: "title") as? String ?? "")" }
        }
        #expect(entities == (0..<9).map { "\($0 % 3 == 0 ? "Film" : "Book")/Title \($0)" })
    }

    @Test func unsavedChangesAreIncluded() throws {
        let container = try venueContainer(rows: 30, in: directory)
        let context = container.newBackgroundContext()
        let tips = try context.performAndWait {
            insertVenue(tips: 500, into: context)
            let highest = venuesByTipsDescending(batchSize: 0)
            highest.predicate = NSPredicate(format: "tips == 29")
            context.delete(try context.fetch(highest)[0])
            return try context.fetchBatched(venuesByTipsDescending(batchSize: 7)).map { $0.value(forKey: "tips") as? Int }
        }
        #expect(tips == [500] + (0..<29).reversed().map { $0 })
    }

    @Test func aChildContextSeesItsParentsUnsavedState() throws {
        let container = try venueContainer(rows: 20, in: directory)
        let parent = container.newBackgroundContext()
        try parent.performAndWait {
            let first = try parent.fetch(venuesByTipsDescending(batchSize: 0)).first!
            first.setValue(-1, forKey: "tips")
        }
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        let tips = try child.performAndWait { try child.fetchBatched(venuesByTipsDescending(batchSize: 6)).map { $0.value(forKey: "tips") as? Int } }
        #expect(tips == (0..<19).reversed().map { $0 } + [-1])
    }

    @Test func objectsComeBackFiredWhenFaultsAreNotWanted() throws {
        let container = try venueContainer(rows: 10, in: directory)
        let context = container.newBackgroundContext()
        let faults = try context.performAndWait {
            let request = venuesByTipsDescending(batchSize: 0)
            request.returnsObjectsAsFaults = false
            let results = try context.fetchBatched(request)
            #expect(results.batchSize == 100, "a batch size of 0 means batches of 100")
            return results.map(\.isFault)
        }
        #expect(faults == Array(repeating: false, count: 10))
    }

    @Test func countsDictionariesAndIDsComeBackWhole() throws {
        let container = try venueContainer(rows: 12, in: directory)
        let context = container.newBackgroundContext()
        let count = NSFetchRequest<NSNumber>(entityName: "Venue")
        count.resultType = .countResultType
        let names = NSFetchRequest<NSDictionary>(entityName: "Venue")
        names.resultType = .dictionaryResultType
        names.propertiesToFetch = ["name"]
        names.predicate = NSPredicate(format: "tips < 2")
        names.sortDescriptors = [NSSortDescriptor(key: "tips", ascending: true)]
        let ids = NSFetchRequest<NSManagedObjectID>(entityName: "Venue")
        ids.resultType = .managedObjectIDResultType

        let results = try context.performAndWait {
            (try context.fetchBatched(count).map(\.intValue),
             try context.fetchBatched(names).map { $0["name"] as? String },
             try context.fetchBatched(ids).count)
        }
        #expect(results.0 == [12])
        #expect(results.1 == ["Venue 000", "Venue 001"])
        #expect(results.2 == 12)
    }

    @Test func aResultTypeTheEntityCannotProduceThrows() throws {
        let container = try venueContainer(rows: 3, in: directory)
        let context = container.newBackgroundContext()
        let request = NSFetchRequest<Dog>(entityName: "Venue")
        #expect(throws: NSError.self) { _ = try context.performAndWait { try context.fetchBatched(request) } }
    }
}
