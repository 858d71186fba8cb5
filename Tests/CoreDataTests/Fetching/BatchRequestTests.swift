import CoreData
import Foundation
import Testing

@Suite struct BatchRequestTests {
    let directory = TemporaryDirectory()

    static func venueModel() -> NSManagedObjectModel {
        NSManagedObjectModel(entities: [
            NSEntityDescription(name: "Venue", properties: [
                NSAttributeDescription(name: "name", type: .stringAttributeType, optional: false),
                NSAttributeDescription(name: "favorite", type: .booleanAttributeType, optional: false, defaultValue: false),
                NSAttributeDescription(name: "tips", type: .integer32AttributeType, optional: false, defaultValue: 0),
            ]),
        ])
    }

    func container(_ type: String) throws -> NSPersistentContainer {
        try makeContainer(model: Self.venueModel(), storeURL: directory.file("Venues.sqlite"), type: type)
    }

    func insertVenues(_ count: Int, into container: NSPersistentContainer) throws -> [NSManagedObjectID] {
        let context = container.newBackgroundContext()
        let insert = NSBatchInsertRequest(entityName: "Venue", objects: (0..<count).map { ["name": "Venue \($0)", "tips": $0] })
        insert.resultType = .objectIDs
        let result = try context.execute(insert) as? NSBatchInsertResult
        return try #require(result?.result as? [NSManagedObjectID])
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func batchUpdateChangesEveryRowAndMergesIntoLiveContexts(storeType: String) throws {
        let container = try container(storeType)
        let ids = try insertVenues(30, into: container)
        let viewer = container.newBackgroundContext()
        let venues = try viewer.performAndWait { try viewer.fetch(NSFetchRequest<NSManagedObject>(entityName: "Venue")) }
        #expect(venues.count == 30)
        #expect(viewer.performAndWait { venues.allSatisfy { $0.value(forKey: "favorite") as? Bool == false } })

        let update = NSBatchUpdateRequest(entityName: "Venue")
        update.propertiesToUpdate = ["favorite": true]
        update.resultType = .updatedObjectIDsResultType
        let updated = try #require((try container.newBackgroundContext().execute(update) as? NSBatchUpdateResult)?.result as? [NSManagedObjectID])
        #expect(Set(updated) == Set(ids))
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectsKey: updated], into: [viewer])
        #expect(viewer.performAndWait { venues.allSatisfy { $0.value(forKey: "favorite") as? Bool == true } })
    }

    @Test func batchUpdateOfAnUnknownAttributeOrWrongTypeThrowsAndChangesNothing() throws {
        let container = try container(NSSQLiteStoreType)
        _ = try insertVenues(3, into: container)
        let context = container.newBackgroundContext()
        for values in [["colour": "red"], ["tips": "many"]] as [[AnyHashable: Any]] {
            let update = NSBatchUpdateRequest(entityName: "Venue")
            update.propertiesToUpdate = values
            #expect(throws: NSError.self) { try context.execute(update) }
        }
        let tips = try context.performAndWait {
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Venue")).compactMap { $0.value(forKey: "tips") as? Int }.sorted()
        }
        #expect(tips == [0, 1, 2])
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func batchDeleteRemovesRowsAndMergingRemovesObjects(storeType: String) throws {
        let container = try container(storeType)
        let ids = try insertVenues(10, into: container)
        let viewer = container.newBackgroundContext()
        _ = try viewer.performAndWait { try viewer.fetch(NSFetchRequest<NSManagedObject>(entityName: "Venue")) }
        let delete = NSBatchDeleteRequest(objectIDs: Array(ids.prefix(4)))
        delete.resultType = .resultTypeCount
        #expect((try container.newBackgroundContext().execute(delete) as? NSBatchDeleteResult)?.result as? Int == 4)
        NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: Array(ids.prefix(4))], into: [viewer])
        #expect(viewer.performAndWait { viewer.registeredObjects.count } == 6)
        #expect(try viewer.performAndWait { try viewer.count(for: NSFetchRequest<NSManagedObject>(entityName: "Venue")) } == 6)
        let all = NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Venue"))
        all.resultType = .resultTypeObjectIDs
        #expect(((try viewer.execute(all) as? NSBatchDeleteResult)?.result as? [NSManagedObjectID])?.count == 6)
        #expect(try viewer.performAndWait { try viewer.count(for: NSFetchRequest<NSManagedObject>(entityName: "Venue")) } == 0)
    }

    @Test func batchInsertRejectsMissingMandatoryValuesAndUnknownKeys() throws {
        let container = try container(NSSQLiteStoreType)
        let context = container.newBackgroundContext()
        #expect(throws: NSError.self) { try context.execute(NSBatchInsertRequest(entityName: "Venue", objects: [["tips": 1]])) }
        #expect(throws: NSError.self) { try context.execute(NSBatchInsertRequest(entityName: "Venue", objects: [["name": "A", "colour": "red"]])) }
        var produced = 0
        let handlerInsert = NSBatchInsertRequest(entityName: "Venue", dictionaryHandler: { dictionary in
            guard produced < 5 else { return true }
            dictionary["name"] = "Handled \(produced)"
            produced += 1
            return false
        })
        handlerInsert.resultType = .count
        #expect((try context.execute(handlerInsert) as? NSBatchInsertResult)?.result as? Int == 5)
        #expect(try context.performAndWait { try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Venue")) } == 5)
    }

    /// The rows are read off the queue, but the objects are registered and the completion block
    /// called on the context's queue: while another block holds that queue, `execute` has
    /// returned and nothing is delivered, however soon the rows are ready.
    @Test func asynchronousFetchReturnsAtOnceAndCompletesOnlyWhenTheContextsQueueIsFree() async throws {
        let container = try container(NSSQLiteStoreType)
        let ids = try insertVenues(50, into: container)
        let context = container.newBackgroundContext()
        let blocker = DispatchSemaphore(value: 0)
        let released = LockedFlag()
        occupy(context, until: blocker, then: released.set)
        let completion = CompletionBox()
        let request = NSAsynchronousFetchRequest(fetchRequest: NSFetchRequest<NSManagedObject>(entityName: "Venue")) { result in
            // Read first: a completion that bypassed the queue would run while the blocker waits.
            let afterBlocker = released.isSet
            let registered = result.finalResult?.allSatisfy { context.registeredObject(for: $0.objectID) === $0 } ?? false
            completion.finish(count: result.finalResult?.count, error: result.operationError, onContextQueue: afterBlocker && registered)
        }
        let result = try #require(try context.execute(request) as? NSAsynchronousFetchResult<NSManagedObject>)
        let progress = try #require(result.progress)

        // Leave the background read time to finish, so a delivery that did not wait would show.
        try await Task.sleep(for: .milliseconds(200))
        #expect(completion.delivered == false, "nothing is delivered while the context's queue is busy")
        #expect(result.finalResult?.count == nil)
        #expect(progress.fractionCompleted < 1)

        blocker.signal()
        let outcome = try await completion.value()
        #expect(outcome.error == nil)
        #expect(outcome.count == 50)
        #expect(outcome.onContextQueue, "the completion ran after the blocking block, with its objects registered")
        #expect(Set(result.finalResult?.map(\.objectID) ?? []) == Set(ids))
        #expect(result.finalResult?.allSatisfy { $0.managedObjectContext === context } == true)
        #expect(progress.totalUnitCount == 50)
        #expect(progress.completedUnitCount == progress.totalUnitCount)
        #expect(progress.fractionCompleted == 1)
    }

    @Test func cancelledAsynchronousFetchReportsCancellation() async throws {
        let container = try container(NSSQLiteStoreType)
        _ = try insertVenues(5, into: container)
        let context = container.newBackgroundContext()
        let completion = CompletionBox()
        let blocker = DispatchSemaphore(value: 0)
        occupy(context, until: blocker)
        let request = NSAsynchronousFetchRequest(fetchRequest: NSFetchRequest<NSManagedObject>(entityName: "Venue")) { result in
            completion.finish(count: result.finalResult?.count, error: result.operationError)
        }
        let result = try #require(try context.execute(request) as? NSAsynchronousFetchResult<NSManagedObject>)
        result.cancel()
        blocker.signal()
        let outcome = try await completion.value()
        #expect(outcome.count == nil)
        #expect((outcome.error as NSError?)?.code == NSUserCancelledError)
    }
}

/// Keeps `context`'s queue busy until `semaphore` is signalled, then runs `then` there.
private func occupy(_ context: NSManagedObjectContext, until semaphore: DispatchSemaphore, then: @escaping () -> Void = {}) {
    context.perform {
        semaphore.wait()
        then()
    }
}

/// Receives an asynchronous fetch's outcome from whatever queue calls back.
final class CompletionBox: @unchecked Sendable {
    struct Outcome { var count: Int?; var error: Error?; var onContextQueue: Bool }
    private let lock = NSLock()
    private var outcome: Outcome?

    func finish(count: Int?, error: Error?, onContextQueue: Bool = false) {
        lock.withLock { outcome = Outcome(count: count, error: error, onContextQueue: onContextQueue) }
    }

    /// Whether the completion block has run yet.
    var delivered: Bool { lock.withLock { outcome != nil } }

    func value() async throws -> Outcome {
        for _ in 0..<1000 {
            if let outcome = lock.withLock({ outcome }) { return outcome }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw CancellationError()
    }
}

/// A flag one queue sets and another reads.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

extension BatchRequestTests {
    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func countsHonourPredicateLimitAndOffset(storeType: String) throws {
        let container = try container(storeType)
        _ = try insertVenues(30, into: container)
        let context = container.newBackgroundContext()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Venue")
        request.predicate = NSPredicate(format: "tips >= 10")
        #expect(try context.count(for: request) == 20)
        request.fetchLimit = 5
        #expect(try context.count(for: request) == 5)
        request.fetchOffset = 18
        #expect(try context.count(for: request) == 2)
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func statusAndCountBatchUpdatesChangeRowsWithoutReportingIDs(storeType: String) throws {
        let container = try container(storeType)
        _ = try insertVenues(12, into: container)
        let context = container.newBackgroundContext()
        let counted = NSBatchUpdateRequest(entityName: "Venue")
        counted.predicate = NSPredicate(format: "tips < 4")
        counted.propertiesToUpdate = ["favorite": true]
        counted.resultType = .updatedObjectsCountResultType
        #expect((try context.execute(counted) as? NSBatchUpdateResult)?.result as? Int == 4)
        let status = NSBatchUpdateRequest(entityName: "Venue")
        status.predicate = NSPredicate(format: "tips >= 10")
        status.propertiesToUpdate = ["favorite": true]
        #expect((try context.execute(status) as? NSBatchUpdateResult)?.result as? Bool == true)
        let favourites = NSFetchRequest<NSManagedObject>(entityName: "Venue")
        favourites.predicate = NSPredicate(format: "favorite == YES")
        #expect(try context.count(for: favourites) == 6)
    }
}
