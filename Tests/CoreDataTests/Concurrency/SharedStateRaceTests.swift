import CoreData
import Foundation
import Testing

/// State shared between contexts, touched from many threads at once the ways Apple's API allows:
/// attaching children to one parent, switching automatic merging while saves arrive, running
/// asynchronous fetches on a busy context, and reading one model from many contexts. Each test
/// checks the outcome; `.ci/run` also runs this suite under ThreadSanitizer, which fails on any
/// data race.
@Suite struct SharedStateRaceTests {
    static let threads = 8

    @Test func childrenAttachedFromManyThreadsAllLearnTheirPermanentIDs() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("Children.sqlite"))
        let parent = container.newBackgroundContext()
        let children = ContextList()
        DispatchQueue.concurrentPerform(iterations: Self.threads) { index in
            let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            child.parent = parent
            let objectID = child.performAndWait { () -> NSManagedObjectID in
                let person = child.insertPerson("Child \(index)")
                try? child.save()
                return person.objectID
            }
            children.append(child, objectID)
        }
        try parent.performAndWait { try parent.save() }
        // The parent tells every attached child of the permanent IDs; a child it lost track of
        // would keep its temporary ID.
        let entries = children.entries
        #expect(entries.count == Self.threads)
        for (child, temporaryID) in entries {
            let permanent = child.performAndWait { child.registeredObjects.allSatisfy { !$0.objectID.isTemporaryID } }
            #expect(permanent, "a child attached concurrently kept \(temporaryID)")
        }
        let reader = container.newBackgroundContext()
        let stored = try reader.performAndWait { try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Person")) }
        #expect(stored == Self.threads)
    }

    @Test func automaticMergingSwitchedOnWhileSavesArriveMergesEverySaveAfterwards() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("Merging.sqlite"))
        let writer = container.newBackgroundContext()
        let readers = (0..<Self.threads).map { _ in container.newBackgroundContext() }
        let saving = DispatchGroup()
        DispatchQueue.global().async(group: saving) {
            for index in 0..<20 {
                writer.performAndWait {
                    writer.insertPerson("Early \(index)")
                    try? writer.save()
                }
            }
        }
        DispatchQueue.concurrentPerform(iterations: readers.count) { index in
            readers[index].automaticallyMergesChangesFromParent = true
            readers[index].name = "reader \(index)"
        }
        saving.wait()
        // Every reader registers a person, then a save changes it: the merge must reach each one.
        let personID = try writer.performAndWait { () -> NSManagedObjectID in
            let person = writer.insertPerson("Watched", age: 1)
            try writer.save()
            return person.objectID
        }
        for reader in readers { _ = reader.performAndWait { (try? reader.existingObject(with: personID))?.value(forKey: "age") } }
        try writer.performAndWait {
            writer.object(with: personID).setValue(Int64(2), forKey: "age")
            try writer.save()
        }
        for reader in readers {
            // The merge is enqueued on the reader's queue by the save: waiting on the queue is enough.
            let age = reader.performAndWait { reader.registeredObject(for: personID)?.value(forKey: "age") as? Int64 }
            #expect(age == 2, "\(reader.name ?? "") did not merge the save")
        }
    }

    @Test func asynchronousFetchesOnABusyContextAllComplete() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("Async.sqlite"))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for index in 0..<50 { context.insertPerson("Person \(index)") }
            try context.save()
        }
        let done = DispatchGroup()
        let counts = LockedLog()
        DispatchQueue.concurrentPerform(iterations: Self.threads) { index in
            done.enter()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            let asynchronous = NSAsynchronousFetchRequest(fetchRequest: request) { result in
                counts.append("\(result.finalResult?.count ?? -1)")
                done.leave()
            }
            context.performAndWait {
                _ = try? context.execute(asynchronous)
                // Keep the queue busy while the fetch reads on its own thread.
                context.insertPerson("Unsaved \(index)")
            }
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(counts.items.count == Self.threads)
        #expect(counts.items.allSatisfy { (Int($0) ?? 0) >= 50 }, "\(counts.items)")
    }

    @Test func oneModelReadByContextsOnManyThreads() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("Model.sqlite"))
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            writer.insertPerson("Ada", pets: ["Rex"])
            try writer.save()
        }
        let results = LockedLog()
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            let context = container.newBackgroundContext()
            let names = context.performAndWait { () -> String in
                let request = NSFetchRequest<NSManagedObject>(entityName: "Pet")
                request.predicate = NSPredicate(format: "owner.name == %@", "Ada")
                let pets = (try? context.fetch(request)) ?? []
                let model = container.managedObjectModel
                let entities = model.entitiesByName.keys.sorted().joined(separator: ",")
                return "\(pets.count) \(entities) \(model.entitiesByName["Person"]?.propertiesByName.count ?? 0)"
            }
            results.append(names)
        }
        #expect(results.items == Array(repeating: "1 Badge,Person,Pet 4", count: Self.threads))
    }
}

/// Contexts with an object ID each, appended from many threads.
private final class ContextList: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [(NSManagedObjectContext, NSManagedObjectID)] = []
    func append(_ context: NSManagedObjectContext, _ id: NSManagedObjectID) { lock.withLock { stored.append((context, id)) } }
    var entries: [(NSManagedObjectContext, NSManagedObjectID)] { lock.withLock { stored } }
}
