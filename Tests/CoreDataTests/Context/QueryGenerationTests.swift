import CoreData
import Foundation
import Testing

/// Query generations: a pinned context reads one version of the store while others save (on
/// SQLite, and on PostgreSQL through scripts/postgres-suites; PostgreSQLQueryGenerationTests
/// adds what only PostgreSQL can do to a generation).
@Suite struct QueryGenerationTests {
    let directory = TemporaryDirectory()

    private func names(in context: NSManagedObjectContext) throws -> [String] {
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            return try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }
        }
    }

    private func save(_ body: @escaping (NSManagedObjectContext) throws -> Void, in container: NSPersistentContainer) throws {
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            try body(writer)
            try writer.save()
        }
    }

    @Test func aContextIsUnpinnedUntilAskedAndThenHasAToken() throws {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite"))
        let context = container.newBackgroundContext()
        #expect(context.queryGenerationToken == nil)
        try context.setQueryGenerationFrom(.current)
        let token = try #require(context.queryGenerationToken)
        #expect(token != NSQueryGenerationToken.current)
        #expect(context.queryGenerationToken == token)
        try context.setQueryGenerationFrom(nil)
        #expect(context.queryGenerationToken == nil)
    }

    @Test func aPinnedContextDoesNotSeeLaterSavesOfAnotherContext() throws {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite"))
        try save({ $0.insertPerson("Ada", age: 36) }, in: container)
        let pinned = container.newBackgroundContext()
        try pinned.setQueryGenerationFrom(.current)
        #expect(try names(in: pinned) == ["Ada"])
        try save({ $0.insertPerson("Grace", age: 85) }, in: container)
        #expect(try names(in: pinned) == ["Ada"])
        #expect(try names(in: container.newBackgroundContext()) == ["Ada", "Grace"])
        let (count, ages) = try pinned.performAndWait { () throws -> (Int, [Int64]) in
            let request = NSFetchRequest<NSDictionary>(entityName: "Person")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["age"]
            return (try pinned.count(for: NSFetchRequest<NSManagedObject>(entityName: "Person")),
                    try pinned.fetch(request).compactMap { $0["age"] as? Int64 })
        }
        #expect(count == 1)
        #expect(ages == [36])
    }

    @Test func aFaultFiredInAPinnedContextReadsTheSnapshotAndLeavesTheSharedCacheCurrent() throws {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite"))
        let adaID = try container.newBackgroundContext().performAndWait { () throws -> NSManagedObjectID in
            let context = container.newBackgroundContext()
            return try context.performAndWait {
                let ada = context.insertPerson("Ada", age: 36)
                try context.save()
                return ada.objectID
            }
        }
        let pinned = container.newBackgroundContext()
        try pinned.setQueryGenerationFrom(.current)
        _ = pinned.queryGenerationToken
        try save({ $0.object(with: adaID).setValue(Int64(37), forKey: "age") }, in: container)
        let pinnedAge = pinned.performAndWait { pinned.object(with: adaID).value(forKey: "age") as? Int64 }
        #expect(pinnedAge == 36)
        let current = container.newBackgroundContext()
        #expect(current.performAndWait { current.object(with: adaID).value(forKey: "age") as? Int64 } == 37)
    }

    @Test func aTokenPinsASecondContextToTheSameData() throws {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite"))
        try save({ $0.insertPerson("Ada") }, in: container)
        let first = container.newBackgroundContext()
        try first.setQueryGenerationFrom(.current)
        let token = try #require(first.queryGenerationToken)
        try save({ $0.insertPerson("Grace") }, in: container)
        let second = container.newBackgroundContext()
        try second.setQueryGenerationFrom(token)
        #expect(try names(in: second) == ["Ada"])
        #expect(second.queryGenerationToken == token)
    }

    @Test func savingMovesAPinnedContextToTheLatestGeneration() throws {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite"))
        let pinned = container.newBackgroundContext()
        try pinned.setQueryGenerationFrom(.current)
        #expect(try names(in: pinned) == [])
        let before = pinned.queryGenerationToken
        try save({ $0.insertPerson("Grace") }, in: container)
        try pinned.performAndWait {
            pinned.insertPerson("Ada")
            try pinned.save()
        }
        #expect(try names(in: pinned) == ["Ada", "Grace"])
        #expect(pinned.queryGenerationToken != before)
    }

    @Test func mergingAnotherSaveAndResettingMoveAPinnedContextOn() throws {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite"))
        let pinned = container.newBackgroundContext()
        try pinned.setQueryGenerationFrom(.current)
        #expect(try names(in: pinned) == [])
        let writer = container.newBackgroundContext()
        let saved = SavedNotification()
        let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: writer, queue: nil) {
            saved.notification = $0
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try writer.performAndWait {
            writer.insertPerson("Grace")
            try writer.save()
        }
        #expect(try names(in: pinned) == [])
        pinned.mergeChanges(fromContextDidSave: try #require(saved.notification))
        #expect(try names(in: pinned) == ["Grace"])
        try save({ $0.insertPerson("Ada") }, in: container)
        #expect(try names(in: pinned) == ["Grace"])
        pinned.reset()
        #expect(try names(in: pinned) == ["Ada", "Grace"])
    }

    @Test func aSaveThroughAnotherCoordinatorOnTheSameFileStaysHidden() throws {
        let url = directory.file("People.sqlite")
        let container = try makeContainer(model: PeopleModel.make(), storeURL: url)
        let other = try makeContainer(model: PeopleModel.make(), storeURL: url)
        let pinned = container.newBackgroundContext()
        try pinned.setQueryGenerationFrom(.current)
        #expect(try names(in: pinned) == [])
        try save({ $0.insertPerson("Grace") }, in: other)
        #expect(try names(in: pinned) == [])
        #expect(try names(in: container.newBackgroundContext()) == ["Grace"])
    }

    /// A generation holds a connection of its own, outside the store's readers: more of them
    /// than the store has pooled connections must not make a reader or a save wait.
    @Test func morePinnedContextsThanPooledConnectionsLeaveReadersAndTheWriterFree() throws {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite"))
        try save({ $0.insertPerson("Ada") }, in: container)
        let pinned = try (0..<12).map { _ in
            let context = container.newBackgroundContext()
            try context.setQueryGenerationFrom(.current)
            #expect(try names(in: context) == ["Ada"])
            return context
        }
        try save({ $0.insertPerson("Grace") }, in: container)
        #expect(try names(in: container.newBackgroundContext()) == ["Ada", "Grace"])
        for context in pinned { #expect(try names(in: context) == ["Ada"]) }
    }

    @Test func storesWithoutGenerationsAndChildContextsRefuseToPin() throws {
        let memory = try makeContainer(model: PeopleModel.make(), storeURL: nil, type: NSInMemoryStoreType)
        #expect(throws: (any Error).self) { try memory.viewContext.setQueryGenerationFrom(.current) }
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite"))
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = container.newBackgroundContext()
        do {
            try child.setQueryGenerationFrom(.current)
            Issue.record("a child context was pinned")
        } catch {
            #expect((error as NSError).code == NSPersistentStoreUnsupportedRequestTypeError)
        }
    }

    @Test func aTokenOfAnotherStoreIsRefused() throws {
        let one = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("One.sqlite"))
        let two = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("Two.sqlite"))
        let pinned = one.newBackgroundContext()
        try pinned.setQueryGenerationFrom(.current)
        let token = try #require(pinned.queryGenerationToken)
        #expect(throws: (any Error).self) { try two.newBackgroundContext().setQueryGenerationFrom(token) }
    }
}
