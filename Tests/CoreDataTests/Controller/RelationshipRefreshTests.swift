@testable import CoreData
import Foundation
import Testing

/// `relationshipKeyPathsForRefreshing` and section key paths through relationships.
@MainActor @Suite struct RelationshipRefreshTests {
    let container: NSPersistentContainer
    var context: NSManagedObjectContext { container.viewContext }
    let inbox: NSManagedObject
    let archive: NSManagedObject

    init() throws {
        container = try makeContainer("Buckets", model: ControllerModels.buckets(), storeURL: nil, type: NSInMemoryStoreType)
        let context = container.viewContext
        inbox = NSEntityDescription.insertNewObject(forEntityName: "Bucket", into: context)
        inbox.setValue("Inbox", forKey: "name")
        archive = NSEntityDescription.insertNewObject(forEntityName: "Bucket", into: context)
        archive.setValue("Archive", forKey: "name")
        for (rank, title) in ["a", "b", "c", "d"].enumerated() {
            let content = NSEntityDescription.insertNewObject(forEntityName: "Content", into: context)
            content.setValue(title, forKey: "title")
            content.setValue(Int64(rank), forKey: "rank")
            content.setValue(rank < 3 ? inbox : archive, forKey: "bucket")
        }
        try context.save()
    }

    func controller(refreshing: Set<String>, sectionNameKeyPath: String? = nil) throws -> NSFetchedResultsController<NSManagedObject> {
        let request = RichFetchRequest<NSManagedObject>(entityName: "Content")
        request.sortDescriptors = sectionNameKeyPath.map { [NSSortDescriptor(key: $0, ascending: true)] } ?? []
        request.sortDescriptors! += [NSSortDescriptor(key: "rank", ascending: true)]
        request.relationshipKeyPathsForRefreshing = refreshing
        let controller = RichFetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: sectionNameKeyPath, cacheName: nil)
        try controller.performFetch()
        return controller
    }

    @Test func renamingABucketUpdatesEveryContentInIt() throws {
        let controller = try controller(refreshing: ["bucket.name"])
        let recorder = TableRecorder()
        controller.delegate = recorder
        inbox.setValue("Today", forKey: "name")
        try context.save()
        #expect(recorder.objectChanges.map(\.type) == [.update, .update, .update])
        #expect(Set(recorder.objectChanges.compactMap(\.at)) == [[0, 0], [0, 1], [0, 2]])
    }

    @Test func withoutRefreshKeyPathsABucketRenameReportsNothing() throws {
        let controller = try controller(refreshing: [])
        let recorder = TableRecorder()
        controller.delegate = recorder
        inbox.setValue("Today", forKey: "name")
        try context.save()
        #expect(recorder.batches == 0)
    }

    @Test func renamingABucketMovesItsContentsBetweenSections() throws {
        let controller = try controller(refreshing: [], sectionNameKeyPath: "bucket.name")
        #expect(controller.sections?.map(\.name) == ["Archive", "Inbox"])
        let recorder = TableRecorder()
        recorder.reset(from: controller)
        controller.delegate = recorder
        inbox.setValue("Attic", forKey: "name")
        try context.save()
        #expect(controller.sections?.map(\.name) == ["Archive", "Attic"])
        #expect(recorder.sectionChanges.map(\.type).sorted { $0.rawValue < $1.rawValue } == [.insert, .delete])
        #expect(recorder.replayFailures.isEmpty)
        #expect(recorder.table == TableRecorder.table(of: controller))
    }

    @Test func aMergedBucketRenameUpdatesItsContents() throws {
        let controller = try controller(refreshing: ["bucket.name"])
        let recorder = TableRecorder()
        controller.delegate = recorder
        let background = container.newBackgroundContext()
        let inboxID = inbox.objectID
        let saved = SavedNotification()
        let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: background, queue: nil) {
            saved.notification = $0
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try background.performAndWait {
            background.object(with: inboxID).setValue("Later", forKey: "name")
            try background.save()
        }
        context.mergeChanges(fromContextDidSave: try #require(saved.notification))
        #expect(recorder.objectChanges.count == 3)
        #expect(recorder.objectChanges.allSatisfy { $0.type == .update })
    }
}

/// Holds a did-save notification caught on the background queue until the test reads it.
final class SavedNotification: @unchecked Sendable {
    var notification: Notification?
}

/// A predicate through a relationship is re-evaluated when the related object changes.
@MainActor @Suite struct RelationshipPredicateTests {
    @Test func renamingABucketMovesItsContentsInAndOutOfAFilteredController() throws {
        let container = try makeContainer("Buckets", model: ControllerModels.buckets(), storeURL: nil, type: NSInMemoryStoreType)
        let context = container.viewContext
        let inbox = try ControllerModels.savedInbox(in: context)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Content")
        request.predicate = NSPredicate(format: "bucket.name == %@", "Inbox")
        request.sortDescriptors = [NSSortDescriptor(key: "rank", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        try controller.performFetch()
        #expect(controller.fetchedObjects?.count == 3)
        let recorder = TableRecorder()
        recorder.reset(from: controller)
        controller.delegate = recorder

        inbox.setValue("Archive", forKey: "name")
        try context.save()
        #expect(controller.fetchedObjects?.isEmpty == true)
        #expect(recorder.objectChanges.map(\.type) == [.delete, .delete, .delete])

        inbox.setValue("Inbox", forKey: "name")
        try context.save()
        #expect(controller.fetchedObjects?.count == 3)
        #expect(recorder.objectChanges.map(\.type) == [.insert, .insert, .insert])
        #expect(recorder.replayFailures.isEmpty)
        #expect(recorder.table == TableRecorder.table(of: controller))
    }
}
