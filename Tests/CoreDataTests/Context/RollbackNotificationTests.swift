import CoreData
import Foundation
import Testing

/// `rollback()` tells observers what it undid, as Apple's does: rolled-back inserts as deleted,
/// rolled-back deletes as inserted, rolled-back edits as refreshed.
@MainActor @Suite struct RollbackNotificationTests {
    let directory = TemporaryDirectory()

    func seeded() throws -> NSPersistentContainer {
        let container = try makeContainer(model: PeopleModel.make(), storeURL: directory.file("People.sqlite"))
        let context = container.viewContext
        for name in ["Ada", "Bo", "Cy"] { context.insertPerson(name) }
        try context.save()
        return container
    }

    func person(_ name: String, in context: NSManagedObjectContext) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.predicate = NSPredicate(format: "name == %@", name)
        return try #require(context.fetch(request).first)
    }

    @Test func rollbackPostsObjectsDidChangeWithWhatItUndid() throws {
        let container = try seeded()
        let context = container.viewContext
        let ada = try person("Ada", in: context)
        let bo = try person("Bo", in: context)
        let new = context.insertPerson("Dee")
        context.delete(ada)
        bo.setValue(41, forKey: "age")
        context.processPendingChanges()

        let posted = PostedChanges.during(context.rollback, in: context)

        #expect(posted.userInfos.count == 1)
        let userInfo = try #require(posted.userInfos.first)
        #expect(userInfo[NSDeletedObjectsKey] as? Set<NSManagedObject> == [new])
        #expect(userInfo[NSInsertedObjectsKey] as? Set<NSManagedObject> == [ada])
        #expect(userInfo[NSRefreshedObjectsKey] as? Set<NSManagedObject> == [bo])
        #expect(bo.value(forKey: "age") as? Int64 == 0 || bo.value(forKey: "age") == nil)
        #expect(!context.hasChanges)
    }

    @Test func rollbackWithoutChangesPostsNothing() throws {
        let container = try seeded()
        let context = container.viewContext
        let posted = PostedChanges.during(context.rollback, in: context)
        #expect(posted.userInfos.isEmpty)
    }

    @Test func aFetchedResultsControllerSeesRolledBackInsertsAndDeletes() throws {
        let container = try seeded()
        let context = container.viewContext
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        try controller.performFetch()
        let recorder = TableRecorder()
        recorder.reset(from: controller)
        controller.delegate = recorder

        context.insertPerson("Abe")
        context.delete(try person("Cy", in: context))
        context.processPendingChanges()
        #expect(names(controller) == ["Abe", "Ada", "Bo"])

        context.rollback()
        #expect(names(controller) == ["Ada", "Bo", "Cy"])
        #expect(Set(recorder.objectChanges.map(\.type)) == [.insert, .delete])
        #expect(recorder.replayFailures.isEmpty)
        #expect(recorder.table == TableRecorder.table(of: controller))
    }

    private func names(_ controller: NSFetchedResultsController<NSManagedObject>) -> [String] {
        (controller.fetchedObjects ?? []).compactMap { $0.value(forKey: "name") as? String }
    }
}

/// The objects-did-change notifications a test caught, posted on the context's queue.
final class PostedChanges: @unchecked Sendable {
    var userInfos: [[AnyHashable: Any]] = []

    /// The notifications `context` posts while `body` runs.
    static func during(_ body: () -> Void, in context: NSManagedObjectContext) -> PostedChanges {
        let posted = PostedChanges()
        let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextObjectsDidChange, object: context, queue: nil) {
            posted.userInfos.append($0.userInfo ?? [:])
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        body()
        return posted
    }
}
