import CoreData
import Foundation
import Testing

/// How work reaches a context's queue: `perform` scheduling, `performAndWait` reentrancy, main-queue
/// contexts, and object IDs crossing between contexts.
@Suite struct ContextQueueTests {
    let directory = TemporaryDirectory()

    func container() throws -> NSPersistentContainer {
        try makeContainer(model: TestModels.dogWalk(), storeURL: directory.file("Queues.sqlite"))
    }

    @MainActor @Test func immediateRunsInlineOnTheQueueAndEnqueuedWaitsForQueuedWork() async throws {
        let context = try container().viewContext
        var log: [String] = []
        enqueue(on: context) { log.append("queued") }
        let immediate = await context.perform(schedule: .immediate) { () -> Int in
            log.append("immediate")
            return 7
        }
        #expect(immediate == 7)
        #expect(log == ["immediate"], "already on the main queue: ran before the queued block")
        let enqueued = await context.perform(schedule: .enqueued) { () -> Int in
            log.append("enqueued")
            return 8
        }
        #expect(enqueued == 8)
        #expect(log == ["immediate", "queued", "enqueued"])
    }

    @Test func performOffTheQueueRunsAfterQueuedWorkReturnsValuesAndRethrows() async throws {
        let context = try container().newBackgroundContext()
        let log = LockedLog()
        enqueue(on: context) { log.append("first") }
        for schedule in [NSManagedObjectContext.ScheduledTaskType.immediate, .enqueued] {
            let value = await context.perform(schedule: schedule) { () -> String in
                log.append("\(schedule)")
                return "done"
            }
            #expect(value == "done")
        }
        #expect(log.items == ["first", "immediate", "enqueued"])
        await #expect(throws: QueueTestError.self) {
            try await context.perform(schedule: .enqueued) { () -> Int in throw QueueTestError() }
        }
        await #expect(throws: QueueTestError.self) {
            try await context.perform { () -> Int in throw QueueTestError() }
        }
    }

    @Test func performAndWaitIsReentrant() throws {
        let container = try container()
        let parent = container.newBackgroundContext()
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        let depth = child.performAndWait {
            child.performAndWait {
                child.performAndWait { () -> Int in
                    Dog(context: child).name = "Nested"
                    // A child reading through its parent while on its own queue.
                    let inParent = parent.performAndWait { parent.registeredObjects.count }
                    return 3 + inParent
                }
            }
        }
        #expect(depth == 3)
        #expect(try child.performAndWait { try child.count(for: NSFetchRequest<Dog>(entityName: "Dog")) } == 1)
        let thrown = #expect(throws: QueueTestError.self) {
            try child.performAndWait { try child.performAndWait { () -> Int in throw QueueTestError() } }
        }
        #expect(thrown != nil)
    }

    @MainActor @Test func aMainQueueContextCompletesWorkWhileTheMainQueueRuns() async throws {
        let container = try container()
        let view = container.viewContext
        #expect(view.concurrencyType == .mainQueueConcurrencyType)
        // From a task off the main thread, as a command-line program's background work would.
        let saved = try await Task.detached { () -> Int in
            try await view.perform {
                Dog(context: view).name = "Main"
                try view.save()
                return view.registeredObjects.count
            }
        }.value
        #expect(saved == 1)
        // The plain callback form completes once the main queue gets to it.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            enqueue(on: view) { continuation.resume() }
        }
        #expect(try view.count(for: NSFetchRequest<Dog>(entityName: "Dog")) == 1)
    }

    @Test func objectIDsAreSendableAndNameTheSameRowInEveryContext() async throws {
        let container = try container()
        let writer = container.newBackgroundContext()
        let ids: [NSManagedObjectID] = try await writer.perform {
            let dogs = (0..<3).map { index in
                let dog = Dog(context: writer)
                dog.name = "Dog \(index)"
                return dog
            }
            try writer.save()
            return dogs.map(\.objectID)
        }
        requireSendable(ids)
        let names = try await withThrowingTaskGroup(of: String?.self) { group in
            for id in ids {
                group.addTask {
                    let reader = container.newBackgroundContext()
                    return try await reader.perform { (try reader.existingObject(with: id) as? Dog)?.name }
                }
            }
            var names: [String] = []
            for try await name in group { if let name { names.append(name) } }
            return names.sorted()
        }
        #expect(names == ["Dog 0", "Dog 1", "Dog 2"])
        let viaURI = container.persistentStoreCoordinator.managedObjectID(forURIRepresentation: ids[0].uriRepresentation())
        #expect(viaURI == ids[0])
    }
}

/// Enqueues with the callback form of `perform` (an async caller would otherwise pick the async
/// overload).
func enqueue(on context: NSManagedObjectContext, _ block: @escaping () -> Void) {
    context.perform(block)
}

func requireSendable<T: Sendable>(_ value: T) {}

struct QueueTestError: Error {}

/// An append-only list shared with blocks running on context queues.
final class LockedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    func append(_ entry: String) { lock.withLock { entries.append(entry) } }
    var items: [String] { lock.withLock { entries } }
}
