import CoreData
import StressFixtures
import Foundation
import Testing

/// The classic many-contexts screen: a background context imports in batches while a fetched
/// results controller on the view context follows every save.
@MainActor @Suite struct BackgroundImportTests {
    @Test func importingTenThousandObjectsReachesAControllerOnTheViewContext() async throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(model: StressModel.make(), storeURL: directory.file("Import.sqlite"))
        let view = container.viewContext
        view.automaticallyMergesChangesFromParent = true
        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        request.sortDescriptors = [NSSortDescriptor(key: "batch", ascending: true), NSSortDescriptor(key: "serial", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: view,
                                                    sectionNameKeyPath: "batch", cacheName: nil)
        let recorder = ImportRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        #expect(controller.fetchedObjects?.count == 0)

        let total = 10_000, perSave = 1_000, sections = 10
        let importer = container.newBackgroundContext()
        try await importer.perform {
            for start in stride(from: 0, to: total, by: perSave) {
                for serial in start..<(start + perSave) {
                    let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: importer)
                    item.setValue(Int64(serial % sections), forKey: "batch")
                    item.setValue(Int64(serial), forKey: "serial")
                }
                try importer.save()
                importer.reset()
            }
        }
        // The merges run on the main queue, which this main-actor test leaves free while it waits.
        let deadline = ContinuousClock.now + .seconds(120)
        while recorder.inserted.count < total, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }

        let objects = try #require(controller.fetchedObjects)
        #expect(objects.count == total)
        let sectionInfo = try #require(controller.sections)
        #expect(sectionInfo.map(\.name) == (0..<sections).map(String.init))
        #expect(sectionInfo.allSatisfy { $0.numberOfObjects == total / sections })
        for (index, section) in sectionInfo.enumerated() {
            let serials = (section.objects ?? []).compactMap { ($0 as? NSManagedObject)?.int64("serial") }
            #expect(serials == Array(stride(from: Int64(index), to: Int64(total), by: sections)))
        }
        // Callbacks: every batch bracketed, each object inserted once, sections inserted once.
        #expect(recorder.willChange == recorder.didChange)
        #expect(recorder.willChange >= 1 && recorder.willChange <= total / perSave)
        #expect(recorder.inserted.count == total)
        #expect(Set(recorder.inserted).count == total)
        #expect(recorder.otherChanges == 0)
        #expect(recorder.insertedSections == sections)
        #expect(!recorder.unbalanced)
    }
}

/// A delegate that tallies what the controller reports.
@MainActor final class ImportRecorder {
    var willChange = 0
    var didChange = 0
    var inserted: [NSManagedObjectID] = []
    var otherChanges = 0
    var insertedSections = 0
    var unbalanced = false
    private var open = false
}

extension ImportRecorder: @MainActor NSFetchedResultsControllerDelegate {
    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        if open { unbalanced = true }
        open = true
        willChange += 1
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo,
                    atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {
        if !open { unbalanced = true }
        if type == .insert { insertedSections += 1 } else { otherChanges += 1 }
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?,
                    for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        if !open { unbalanced = true }
        if type == .insert, let object = anObject as? NSManagedObject, newIndexPath != nil {
            inserted.append(object.objectID)
        } else {
            otherChanges += 1
        }
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        if !open { unbalanced = true }
        open = false
        didChange += 1
    }
}
