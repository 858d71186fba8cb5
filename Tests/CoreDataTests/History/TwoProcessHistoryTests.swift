@testable import CoreData
import Foundation
import StressFixtures
import Testing

/// Persistent history across processes: a child process (`CoreDataStress history-writer`)
/// saves; this process hears each commit through `.NSPersistentStoreRemoteChange`, fetches the
/// history after its token, merges it, and its fetched results controller's reports replay to
/// the writer's state.
extension PersistentHistoryTests {
    static let writerSaves = 200

    @Test func anotherProcessesSavesReachAControllerThroughHistory() throws {
        let options: [String: NSObject] = [NSPersistentHistoryTrackingKey: true as NSNumber,
                                           NSPersistentStoreRemoteChangeNotificationPostOptionKey: true as NSNumber]
        let reader = try StressModel.container(path: storeURL.path, options: options)
        let context = reader.viewContext
        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        request.sortDescriptors = [NSSortDescriptor(key: "batch", ascending: true), NSSortDescriptor(key: "touches", ascending: true),
                                   NSSortDescriptor(key: "serial", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "batch", cacheName: nil)
        try controller.performFetch()
        let recorder = TableRecorder.attached(to: controller)
        let inbox = RemoteChangeInbox(coordinator: reader.persistentStoreCoordinator)
        var token = reader.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)

        let log = directory.file("writer.log")
        let writer = try StressProcess(["history-writer", "--store", storeURL.path, "--saves", String(Self.writerSaves), "--log", log.path],
                                       errorLog: directory.file("writer.err"))
        var mergedAt: [Date] = []
        var transactionNumbers: [Int64] = []
        let deadline = Date().addingTimeInterval(120)
        while mergedAt.count < Self.writerSaves, Date() < deadline {
            let heard = inbox.next() != nil
            for transaction in try history(.fetchHistory(after: token), in: context) {
                let batches = recorder.batches
                context.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                mergedAt.append(Date())
                #expect(recorder.batches == batches + 1, "transaction \(transaction.transactionNumber) changed the controller")
                #expect(transaction.author == "history-writer")
                transactionNumbers.append(transaction.transactionNumber)
                token = transaction.token
            }
            if !heard, !writer.process.isRunning { break }
        }
        #expect(writer.waitForSuccess() == nil)
        #expect(mergedAt.count == Self.writerSaves, "merged \(mergedAt.count) of \(Self.writerSaves) saves")
        #expect(transactionNumbers == transactionNumbers.sorted())

        // The reports replayed onto the first table give the controller's table, and that holds
        // what a fresh coordinator reads from the file.
        #expect(recorder.replayFailures.isEmpty, "\(recorder.replayFailures.prefix(3))")
        #expect(recorder.table == TableRecorder.table(of: controller))
        let freshContainer = try StressModel.container(path: storeURL.path, options: options)
        let fresh = try freshContainer.viewContext.fetch(request)
        let shown = (controller.sections ?? []).flatMap { $0.objects as? [NSManagedObject] ?? [] }
        #expect(shown.map { $0.int64("serial") } == fresh.map { $0.int64("serial") })
        #expect(shown.map { $0.int64("touches") } == fresh.map { $0.int64("touches") })
        #expect(controller.sections?.map(\.name) == Array(Set(fresh.map { String($0.int64("batch")) })).sorted())

        // Commit (when the writer's save returned) to merged (just after this controller's
        // controllerDidChangeContent), for BENCHMARKS.md; reported, not asserted.
        let commits = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap { Double($0.split(separator: " ")[1]) }
        let delays = zip(commits, mergedAt).map { ($1.timeIntervalSince1970 - $0) * 1000 }.sorted()
        if !delays.isEmpty {
            print("two-process history, commit to controllerDidChangeContent over \(delays.count) saves: "
                  + "p50 \(String(format: "%.1f", delays[delays.count / 2])) ms, p99 \(String(format: "%.1f", delays[delays.count * 99 / 100])) ms")
        }
    }
}
