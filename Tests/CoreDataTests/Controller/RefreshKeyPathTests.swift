@testable import CoreData
import Foundation
import Testing

/// `relationshipKeyPathsForRefreshing = ["bucket.name"]` redraws rows when the listed key of the
/// related object changes, and never for a key that is not listed.
@MainActor @Suite struct RefreshKeyPathTests {
    let directory = TemporaryDirectory()
    let container: NSPersistentContainer
    var context: NSManagedObjectContext { container.viewContext }
    let inbox: NSManagedObject

    init() throws {
        container = try makeContainer("Buckets", model: ControllerModels.buckets(), storeURL: directory.file("Buckets.sqlite"))
        inbox = try ControllerModels.savedInbox(in: container.viewContext, colour: "red")
    }

    func observed() throws -> (NSFetchedResultsController<NSManagedObject>, TableRecorder) {
        let request = RichFetchRequest<NSManagedObject>(entityName: "Content")
        request.sortDescriptors = [NSSortDescriptor(key: "rank", ascending: true)]
        request.relationshipKeyPathsForRefreshing = ["bucket.name"]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        try controller.performFetch()
        let recorder = TableRecorder()
        recorder.reset(from: controller)
        controller.delegate = recorder
        return (controller, recorder)
    }

    @Test func changingAListedKeyOfTheRelatedObjectUpdatesItsRows() throws {
        let (controller, recorder) = try observed()
        inbox.setValue("Today", forKey: "name")
        try context.save()
        #expect(recorder.objectChanges.map(\.type) == [.update, .update, .update])
        #expect(controller.fetchedObjects?.count == 3)
    }

    @Test func changingAnUnlistedKeyOfTheRelatedObjectReportsNothing() throws {
        let (controller, recorder) = try observed()
        inbox.setValue("blue", forKey: "colour")
        try context.save()
        #expect(recorder.batches == 0)
        #expect(recorder.objectChanges.isEmpty)
        #expect(controller.fetchedObjects?.count == 3)
    }

    @Test func aMergedChangeOfAnUnlistedKeyReportsNothingAndOfAListedKeyUpdates() throws {
        let (controller, recorder) = try observed()
        let background = container.newBackgroundContext()
        let inboxID = inbox.objectID
        func saveInBackground(_ key: String, _ value: String) throws {
            let saved = SavedNotification()
            let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: background, queue: nil) {
                saved.notification = $0
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            try background.performAndWait {
                background.object(with: inboxID).setValue(value, forKey: key)
                try background.save()
            }
            context.mergeChanges(fromContextDidSave: try #require(saved.notification))
        }
        try saveInBackground("colour", "green")
        #expect(recorder.objectChanges.isEmpty)
        try saveInBackground("name", "Later")
        #expect(recorder.objectChanges.map(\.type) == [.update, .update, .update])
        #expect(controller.fetchedObjects?.count == 3)
    }

    @Test func changedValuesForCurrentEventHoldTheKeysChangedSinceTheLastNotification() throws {
        inbox.setValue("blue", forKey: "colour")
        #expect(Set(inbox.changedValuesForCurrentEvent().keys) == ["colour"])
        context.processPendingChanges()
        #expect(inbox.changedValuesForCurrentEvent().isEmpty)
        #expect(Set(inbox.changedValues().keys) == ["colour"], "still unsaved")
    }
}
