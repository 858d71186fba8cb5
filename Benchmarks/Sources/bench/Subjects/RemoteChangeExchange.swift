import CoreData
import Foundation

/// The other process of the remote-change case: this program started with
/// `--history-writer STORE LOG`. It makes `saves` one-change saves and appends, after each, the
/// time its `save()` returned (seconds since 1970) to LOG.
enum HistoryWriterChild {
    static let saves = 200
    static let pauseMilliseconds = 10

    static func run(_ arguments: [String]) throws {
        guard arguments.count == 2 else { throw UsageError("--history-writer STORE LOG") }
        let container = try CoreDataStack.container(at: URL(fileURLWithPath: arguments[0]), options: CoreDataStack.historyOptions)
        let context = CoreDataStack.context(container)
        var teams = try context.fetch(CoreDataStack.teamRequest())
        var log = ""
        for number in 1...saves {
            if teams.isEmpty || number % 4 == 3 {
                let team = Team(context: context)
                team.name = "Newcomer \(number)"
                team.zone = TeamData.zones[number % TeamData.zones.count]
                team.wins = Int32(number % 13)
                teams.append(team)
            } else if number % 4 == 0 {
                context.delete(teams.remove(at: number * 7 % teams.count))
            } else {
                teams[number * 5 % teams.count].wins += Int32(number % 9)
            }
            try context.save()
            log += "\(Date().timeIntervalSince1970)\n"
            Thread.sleep(forTimeInterval: Double(pauseMilliseconds) / 1000)
        }
        try log.write(toFile: arguments[1], atomically: false, encoding: .utf8)
    }
}

/// One run of the remote-change case from this side: a sectioned controller on the view
/// context follows the child's saves through history. Returns, for each save, the milliseconds
/// from the child's `save()` returning to this side's merge of it returning (the controller's
/// `controllerDidChangeContent` having run inside the merge).
struct RemoteChangeExchange {
    let directory: URL

    func run() throws -> [Double] {
        let url = directory.appendingPathComponent("remote-change-\(UUID().uuidString.prefix(8)).sqlite")
        let container = try CoreDataStack.container(at: url, options: CoreDataStack.historyOptions)
        let context = container.viewContext
        for index in 0..<40 {
            let team = Team(context: context)
            team.name = "Team \(index)"
            team.zone = TeamData.zones[index % TeamData.zones.count]
            team.wins = Int32(index % 11)
        }
        try context.save()
        let request = CoreDataStack.teamRequest()
        request.sortDescriptors = [NSSortDescriptor(key: "zone", ascending: true), NSSortDescriptor(key: "wins", ascending: false),
                                   NSSortDescriptor(key: "name", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "zone", cacheName: nil)
        let reports = ReportCounter()
        controller.delegate = reports
        try controller.performFetch()

        let heard = DispatchSemaphore(value: 0)
        let observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: container.persistentStoreCoordinator,
                                                              queue: nil) { _ in heard.signal() }
        defer { NotificationCenter.default.removeObserver(observer) }
        var token = container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)

        let log = directory.appendingPathComponent("writer-\(UUID().uuidString.prefix(8)).log")
        let child = Process()
        child.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        child.arguments = ["--history-writer", url.path, log.path]
        try child.run()
        var mergedAt: [Double] = []
        while mergedAt.count < HistoryWriterChild.saves {
            let notified = heard.wait(timeout: .now() + 2) == .success
            let result = try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: token)) as? NSPersistentHistoryResult
            for transaction in result?.result as? [NSPersistentHistoryTransaction] ?? [] {
                context.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                mergedAt.append(Date().timeIntervalSince1970)
                token = transaction.token
            }
            if !notified, !child.isRunning { break }
        }
        child.waitUntilExit()
        let commits = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap { Double($0) }
        guard child.terminationStatus == 0, commits.count == HistoryWriterChild.saves, mergedAt.count == commits.count,
              reports.batches == commits.count else {
            throw RemoteChangeFailure(description: "the writer exited with \(child.terminationStatus) after \(commits.count) saves; merged \(mergedAt.count), \(reports.batches) controller reports")
        }
        return zip(commits, mergedAt).map { ($1 - $0) * 1000 }
    }
}

struct RemoteChangeFailure: Error, CustomStringConvertible {
    let description: String
}

/// Counts the controller's change batches: every merged save must produce one.
private final class ReportCounter: NSFetchedResultsControllerDelegate {
    var batches = 0
    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) { batches += 1 }
}
