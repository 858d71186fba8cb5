import CoreData
import Foundation
import StressFixtures

/// `live-replica`: one of several processes on one store, each saving and each watching every
/// save (its own and the others') through persistent history, as a server behind a load balancer
/// would. For the test of live controllers across processes (on PostgreSQL: across machines).
///
/// A background context saves `saves` `ItemChurn` changes, each with an author of its own
/// (`LiveReplicaReport.author`), logging "author commit-time" after each. Meanwhile this thread
/// waits for `.NSPersistentStoreRemoteChange`, fetches the history after its token, and merges
/// it into the context of a fetched results controller sectioned by `batch`, whose reports a
/// `ReplayedTable` applies. The replicas meet through files in `signalFolder`: each starts saving
/// once every one has its controller (so each controller sees every save as a change), and when
/// every one has finished saving, each merges what is left and writes its report.
struct LiveReplica {
    let store: String
    let replica: Int
    let replicas: Int
    let saves: Int
    let intervalMilliseconds: Int
    let signalFolder: String
    let commitLogPath: String
    let reportPath: String

    func run() throws {
        let container = try StressModel.container(path: store, options: [NSPersistentHistoryTrackingKey: true as NSNumber,
                                                                           NSPersistentStoreRemoteChangeNotificationPostOptionKey: true as NSNumber])
        let coordinator = container.persistentStoreCoordinator
        let heard = DispatchSemaphore(value: 0)
        let observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: coordinator, queue: nil) { _ in
            heard.signal()
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        let watching = container.newBackgroundContext()
        var report = LiveReplicaReport(replica: replica)
        let (controller, table) = try watching.performAndWait {
            let controller = NSFetchedResultsController(fetchRequest: Self.request(), managedObjectContext: watching,
                                                        sectionNameKeyPath: "batch", cacheName: nil)
            try controller.performFetch()
            return (controller, ReplayedTable(replaying: controller))
        }
        var token = coordinator.currentPersistentHistoryToken(fromStores: nil)
        try Data().write(to: URL(fileURLWithPath: signal("ready", replica)))
        for other in 1...replicas where !waitForFile(signal("ready", other), timeout: 60) {
            throw StressFailure("replica \(other) did not start within a minute")
        }
        try startSaving(container.newBackgroundContext())

        let done = (1...replicas).map { signal("done", $0) }
        var finished = false
        while !finished {
            // Once every replica has finished saving, one more merge takes in what is left.
            finished = done.allSatisfy(FileManager.default.fileExists(atPath:))
            if !finished { _ = heard.wait(timeout: .now() + .milliseconds(200)) }
            try watching.performAndWait {
                let result = try watching.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: token)) as? NSPersistentHistoryResult
                for transaction in result?.result as? [NSPersistentHistoryTransaction] ?? [] {
                    let batches = table.batches
                    watching.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                    let author = transaction.author ?? "transaction \(transaction.transactionNumber)"
                    if table.batches > batches {
                        report.deliveries[author] = table.lastBatchEnded.timeIntervalSince1970
                    } else {
                        report.silentTransactions.append(author)
                    }
                    token = transaction.token
                }
            }
        }
        try watching.performAndWait {
            report.replayMismatches = table.mismatches
            report.controllerSections = Self.sections(controller.sections ?? [])
            let fresh = NSFetchedResultsController(fetchRequest: Self.request(), managedObjectContext: container.newBackgroundContext(),
                                                   sectionNameKeyPath: "batch", cacheName: nil)
            try fresh.managedObjectContext.performAndWait { try fresh.performFetch() }
            report.fetchedSections = Self.sections(fresh.sections ?? [])
        }
        try JSONEncoder().encode(report).write(to: URL(fileURLWithPath: reportPath))
    }

    /// Saves on `context`'s queue, one author per save, then creates this replica's done file.
    private func startSaving(_ context: NSManagedObjectContext) throws {
        let log = try AppendOnlyLog(path: commitLogPath)
        let donePath = URL(fileURLWithPath: signal("done", replica))
        let (replica, saves, interval) = (replica, saves, intervalMilliseconds)
        context.perform {
            do {
                var churn = ItemChurn(serialBase: Int64(replica) * 1_000_000)
                for number in 1...saves {
                    guard churn.change(number, in: context) else { continue }
                    let author = LiveReplicaReport.author(replica: replica, save: number)
                    context.transactionAuthor = author
                    try context.save()
                    try log.append("\(author) \(Date().timeIntervalSince1970)")
                    Thread.sleep(forTimeInterval: Double.random(in: 0...Double(2 * interval)) / 1000)
                }
                try Data().write(to: donePath)
            } catch {
                FileHandle.standardError.write(Data("CoreDataStress live-replica \(replica): saving failed: \(error)\n".utf8))
                exit(1)
            }
        }
    }

    /// The file replica `number` creates in `signalFolder` once it is `event` ("ready", "done").
    private func signal(_ event: String, _ number: Int) -> String {
        URL(fileURLWithPath: signalFolder).appendingPathComponent("replica-\(number).\(event)").path
    }

    private static func request() -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        request.sortDescriptors = [NSSortDescriptor(key: "batch", ascending: true), NSSortDescriptor(key: "touches", ascending: true),
                                   NSSortDescriptor(key: "serial", ascending: true)]
        return request
    }

    private static func sections(_ sections: [NSFetchedResultsSectionInfo]) -> [LiveReplicaReport.Section] {
        sections.map { .init(name: $0.name, serials: ($0.objects as? [NSManagedObject] ?? []).map { $0.int64("serial") }) }
    }
}
