import CoreData
import Foundation
import Testing

/// `NSPersistentStoreAsynchronousResult` sits between `NSPersistentStoreResult` and
/// `NSAsynchronousFetchResult`, so code that handles any background result works with a fetch's.
@Suite struct AsynchronousResultTests {
    let directory = TemporaryDirectory()

    @Test func anAsynchronousFetchResultIsAPersistentStoreAsynchronousResult() async throws {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite"))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for name in ["Ada", "Bo"] { context.insertPerson(name) }
            try context.save()
        }
        let completion = CompletionBox()
        let request = NSAsynchronousFetchRequest(fetchRequest: NSFetchRequest<NSManagedObject>(entityName: "Person")) { result in
            completion.finish(count: result.finalResult?.count, error: result.operationError)
        }
        let result: NSPersistentStoreResult = try context.execute(request)
        let asynchronous = try #require(result as? NSPersistentStoreAsynchronousResult)
        #expect(asynchronous.managedObjectContext === context)
        #expect(asynchronous.progress != nil)
        let outcome = try await completion.value()
        #expect(outcome.count == 2)
        #expect(asynchronous.operationError == nil)
    }

    @Test func cancellingThroughTheBaseClassStopsTheFetch() async throws {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite"))
        let context = container.newBackgroundContext()
        let blocker = DispatchSemaphore(value: 0)
        hold(context, until: blocker)
        let completion = CompletionBox()
        let request = NSAsynchronousFetchRequest(fetchRequest: NSFetchRequest<NSManagedObject>(entityName: "Person")) { result in
            completion.finish(count: result.finalResult?.count, error: result.operationError)
        }
        let result = try #require(try context.execute(request) as? NSPersistentStoreAsynchronousResult)
        result.cancel()
        blocker.signal()
        let outcome = try await completion.value()
        #expect(outcome.count == nil)
        #expect((result.operationError as NSError?)?.code == NSUserCancelledError)
    }
}

/// Keeps `context`'s queue busy until `semaphore` is signalled (the block-based `perform`, from
/// code that is not `async`).
private func hold(_ context: NSManagedObjectContext, until semaphore: DispatchSemaphore) {
    context.perform { semaphore.wait() }
}
