import CoreData
import Foundation
import Testing

/// Every nesting of synchronous calls that Apple's Core Data allows, on private and main-queue
/// parents, over SQLite and in memory: each completes, does what Apple documents, and neither
/// traps in libdispatch nor deadlocks (a deadlock fails the test through `runGuarded`).
@Suite struct NestedPerformTests {
    enum StoreKind: String, CaseIterable, Sendable { case sqlite, inMemory }
    static let parentKinds: [NSManagedObjectContextConcurrencyType] = [.privateQueueConcurrencyType, .mainQueueConcurrencyType]

    /// A coordinator with one store and a parent context of the given kind.
    struct Stack: Sendable {
        let directory: TemporaryDirectoryBox
        let coordinator: NSPersistentStoreCoordinator
        let parent: NSManagedObjectContext

        init(_ store: StoreKind, parent kind: NSManagedObjectContextConcurrencyType) throws {
            directory = TemporaryDirectoryBox()
            let container = try makeContainer(model: PeopleModel.make(), storeURL: store == .sqlite ? directory.value.file("Nested.sqlite") : nil,
                                              type: store == .sqlite ? NSSQLiteStoreType : NSInMemoryStoreType)
            coordinator = container.persistentStoreCoordinator
            parent = NSManagedObjectContext(concurrencyType: kind)
            parent.persistentStoreCoordinator = coordinator
            parent.name = "parent"
        }

        func child(of context: NSManagedObjectContext? = nil, _ name: String = "child") -> NSManagedObjectContext {
            let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            child.parent = context ?? parent
            child.name = name
            return child
        }

        /// People committed to the store, read by a fresh context.
        func storedNames() throws -> [String] {
            let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            reader.persistentStoreCoordinator = coordinator
            return try reader.performAndWait { try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")).compactMap { $0.value(forKey: "name") as? String }.sorted() }
        }
    }

    static var people: NSFetchRequest<NSManagedObject> { NSFetchRequest(entityName: "Person") }

    @Test(arguments: StoreKind.allCases, parentKinds)
    func childFetchAndSaveInsideTheParentsBlock(store: StoreKind, parentKind: NSManagedObjectContextConcurrencyType) throws {
        let stack = try Stack(store, parent: parentKind)
        let child = stack.child()
        let seen = try runGuarded {
            try stack.parent.performAndWait { () -> (Int, Int) in
                try child.performAndWait {
                    child.insertPerson("Ada")
                    let fetched = try child.fetch(Self.people).count
                    try child.save()
                    // A child's save hands its changes to the parent, which holds them unsaved.
                    return (fetched, stack.parent.insertedObjects.count)
                }
            }
        }
        #expect(seen?.0 == 1)
        #expect(seen?.1 == 1)
        #expect(try stack.storedNames() == [])
        try runGuarded { try stack.parent.performAndWait { try stack.parent.save() } }
        #expect(try stack.storedNames() == ["Ada"])
    }

    @Test(arguments: StoreKind.allCases, parentKinds)
    func childSaveCalledDirectlyInsideTheParentsBlock(store: StoreKind, parentKind: NSManagedObjectContextConcurrencyType) throws {
        let stack = try Stack(store, parent: parentKind)
        let child = stack.child()
        child.performAndWait { _ = child.insertPerson("Grace") }
        try runGuarded {
            try stack.parent.performAndWait {
                try child.save()
                try stack.parent.save()
            }
        }
        #expect(try stack.storedNames() == ["Grace"])
    }

    @Test(arguments: StoreKind.allCases, parentKinds)
    func parentWorkInsideTheChildsBlock(store: StoreKind, parentKind: NSManagedObjectContextConcurrencyType) throws {
        let stack = try Stack(store, parent: parentKind)
        let child = stack.child()
        let counts = try runGuarded {
            try child.performAndWait { () -> (Int, Int) in
                child.insertPerson("Edsger")
                try child.save()
                return try stack.parent.performAndWait {
                    let pending = try stack.parent.count(for: Self.people)
                    try stack.parent.save()
                    return (pending, stack.parent.insertedObjects.count)
                }
            }
        }
        #expect(counts?.0 == 1, "the parent counts the child's pushed insert")
        #expect(counts?.1 == 0, "and has nothing left to save")
        #expect(try stack.storedNames() == ["Edsger"])
    }

    @Test(arguments: StoreKind.allCases, parentKinds)
    func grandchildrenSaveUpThroughEveryLevelNestedEitherWay(store: StoreKind, parentKind: NSManagedObjectContextConcurrencyType) throws {
        let stack = try Stack(store, parent: parentKind)
        let child = stack.child()
        let grandchild = stack.child(of: child, "grandchild")
        // Outermost first: parent, then child, then grandchild.
        try runGuarded {
            try stack.parent.performAndWait {
                try child.performAndWait {
                    try grandchild.performAndWait {
                        grandchild.insertPerson("Barbara")
                        try grandchild.save()
                    }
                    try child.save()
                }
                try stack.parent.save()
            }
        }
        #expect(try stack.storedNames() == ["Barbara"])
        // Innermost first: the grandchild's block reaches up through both ancestors.
        let counts = try runGuarded {
            try grandchild.performAndWait { () -> [Int] in
                grandchild.insertPerson("Donald")
                try grandchild.save()
                return try child.performAndWait {
                    try child.save()
                    return try stack.parent.performAndWait {
                        let before = try stack.parent.count(for: Self.people)
                        try stack.parent.save()
                        return [before, try grandchild.count(for: Self.people)]
                    }
                }
            }
        }
        #expect(counts == [2, 2])
        #expect(try stack.storedNames() == ["Barbara", "Donald"])
    }

    @Test(arguments: StoreKind.allCases, parentKinds)
    func siblingsSharingAParentNestInsideItAndEachOther(store: StoreKind, parentKind: NSManagedObjectContextConcurrencyType) throws {
        let stack = try Stack(store, parent: parentKind)
        let first = stack.child(of: nil, "first")
        let second = stack.child(of: nil, "second")
        let seen = try runGuarded {
            try stack.parent.performAndWait { () -> Int in
                try first.performAndWait {
                    try second.performAndWait {
                        second.insertPerson("Second")
                        try second.save()
                    }
                    first.insertPerson("First")
                    try first.save()
                    // The first sibling's fetch includes what the second pushed into the parent.
                    return try first.count(for: Self.people)
                }
            }
        }
        #expect(seen == 2)
        try runGuarded { try stack.parent.performAndWait { try stack.parent.save() } }
        #expect(try stack.storedNames() == ["First", "Second"])
    }

    @Test(arguments: StoreKind.allCases, parentKinds)
    func synchronousContextAPIInsideAnotherContextsBlock(store: StoreKind, parentKind: NSManagedObjectContextConcurrencyType) throws {
        let stack = try Stack(store, parent: parentKind)
        let child = stack.child()
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = stack.coordinator
        let savedID = try runGuarded {
            try stack.parent.performAndWait { () -> NSManagedObjectID in
                let person = stack.parent.insertPerson("Saved")
                try stack.parent.save()
                return person.objectID
            }
        }
        let results = try runGuarded {
            // Each call below is on a context whose queue the thread does not hold.
            try other.performAndWait { () -> [String] in
                var log: [String] = []
                log.append("fetch \(try child.fetch(Self.people).count)")
                log.append("count \(try stack.parent.count(for: Self.people))")
                let found = try child.existingObject(with: savedID!)
                log.append("existing \(child.performAndWait { found.value(forKey: "name") as? String ?? "?" })")
                let inserted = child.performAndWait { child.insertPerson("Pending") }
                try child.obtainPermanentIDs(for: [inserted])
                log.append("permanent \(!inserted.objectID.isTemporaryID)")
                try child.save()
                try stack.parent.save()
                log.append("saved")
                return log
            }
        }
        #expect(results == ["fetch 1", "count 1", "existing Saved", "permanent true", "saved"])
        #expect(try stack.storedNames() == ["Pending", "Saved"])
    }

    @Test(arguments: StoreKind.allCases, parentKinds)
    func performScheduledInsidePerformAndWaitRunsAfterTheBlock(store: StoreKind, parentKind: NSManagedObjectContextConcurrencyType) throws {
        let stack = try Stack(store, parent: parentKind)
        let child = stack.child()
        let log = LockedLog()
        let finished = DispatchSemaphore(value: 0)
        _ = try runGuarded {
            child.performAndWait {
                child.perform {
                    log.append("perform")
                    child.insertPerson("Later")
                    do { try child.save() } catch { log.append("error \(error)") }
                    finished.signal()
                }
                // The child's queue is held by this block: the enqueued work waits for it.
                log.append("block")
            }
        }
        #expect(finished.wait(timeout: .now() + 30) == .success, "the scheduled perform never ran")
        #expect(log.items == ["block", "perform"])
        // Scheduled from the parent's block too: runs on the child's queue, saves into the parent.
        let second = DispatchSemaphore(value: 0)
        _ = try runGuarded {
            stack.parent.performAndWait {
                child.perform {
                    child.insertPerson("FromParent")
                    do { try child.save() } catch { log.append("error \(error)") }
                    second.signal()
                }
            }
        }
        #expect(second.wait(timeout: .now() + 30) == .success, "the perform scheduled from the parent never ran")
        try runGuarded { try stack.parent.performAndWait { try stack.parent.save() } }
        #expect(try stack.storedNames() == ["FromParent", "Later"])
        #expect(!log.items.contains { $0.hasPrefix("error") }, "\(log.items)")
    }

    @Test(arguments: StoreKind.allCases, parentKinds)
    func coordinatorPerformAndWaitNestsWithContexts(store: StoreKind, parentKind: NSManagedObjectContextConcurrencyType) throws {
        let stack = try Stack(store, parent: parentKind)
        let coordinator = stack.coordinator
        let depth = try runGuarded {
            try coordinator.performAndWait { () -> Int in
                try stack.parent.performAndWait {
                    stack.parent.insertPerson("Coordinated")
                    try stack.parent.save()
                    // Back into the coordinator from inside the context inside the coordinator.
                    return coordinator.performAndWait { coordinator.performAndWait { coordinator.persistentStores.count } }
                }
            }
        }
        #expect(depth == 1)
        let names = try runGuarded {
            try stack.parent.performAndWait {
                try coordinator.performAndWait { try stack.parent.fetch(Self.people).compactMap { $0.value(forKey: "name") as? String } }
            }
        }
        #expect(names == ["Coordinated"])
        let asyncResult = try runGuarded { () -> Int in
            let ran = DispatchSemaphore(value: 0)
            let seen = LockedLog()
            coordinator.perform {
                seen.append("\(coordinator.performAndWait { coordinator.persistentStores.count })")
                ran.signal()
            }
            _ = ran.wait(timeout: .now() + 20)
            return seen.items.count
        }
        #expect(asyncResult == 1)
    }

    @Test func coordinatorAsyncPerformReturnsItsValueAndRethrows() async throws {
        let stack = try Stack(.inMemory, parent: .privateQueueConcurrencyType)
        let count = await stack.coordinator.perform { stack.coordinator.persistentStores.count }
        #expect(count == 1)
        await #expect(throws: QueueTestError.self) {
            try await stack.coordinator.perform { () -> Int in throw QueueTestError() }
        }
    }
}

/// A temporary directory that may cross threads (it is only read after creation).
final class TemporaryDirectoryBox: @unchecked Sendable {
    let value = TemporaryDirectory()
}
