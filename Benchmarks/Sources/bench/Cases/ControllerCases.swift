import BenchSQLite
import CoreData
import GRDB

/// A delegate doing as little as a table would: counting, and noting when content changed.
final class TimingDelegate: NSFetchedResultsControllerDelegate {
    var objectChanges = 0
    var didChangeContentAt: UInt64 = 0

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?,
                    for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        objectChanges += 1
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        didChangeContentAt = Stopwatch.nanoseconds()
    }
}

/// The controller's request: every team, sectioned by zone, by name within a zone.
func sectionedRequest() -> NSFetchRequest<Team> {
    let request = CoreDataStack.teamRequest()
    request.sortDescriptors = [NSSortDescriptor(key: "zone", ascending: true), NSSortDescriptor(key: "name", ascending: true)]
    return request
}

/// A controller on `context`, sectioned by zone, fetched, with a timing delegate.
func sectionedController(_ context: NSManagedObjectContext) throws -> (NSFetchedResultsController<Team>, TimingDelegate) {
    let controller = NSFetchedResultsController(fetchRequest: sectionedRequest(), managedObjectContext: context,
                                                sectionNameKeyPath: "zone", cacheName: nil)
    let delegate = TimingDelegate()
    controller.delegate = delegate
    try controller.performFetch()
    return (controller, delegate)
}

/// What a controller would do without incremental changes: the old and new results compared in
/// linear time with a hash map. Returns how many objects moved, came or went.
func linearDifference(old: [NSManagedObjectID], new: [NSManagedObjectID]) -> Int {
    var oldPositions = [NSManagedObjectID: Int](minimumCapacity: old.count)
    for (position, id) in old.enumerated() { oldPositions[id] = position }
    var changes = 0
    var seen = 0
    for (position, id) in new.enumerated() {
        if let oldPosition = oldPositions[id] {
            seen += 1
            if oldPosition != position { changes += 1 }
        } else {
            changes += 1
        }
    }
    return changes + (old.count - seen)
}

/// Sorted primary keys with their zones, and the section boundaries: the floor of a sectioned
/// controller fetch.
func floorSectionedKeys(_ statement: OpaquePointer) -> (keys: [Int64], sectionStarts: [Int]) {
    var keys: [Int64] = []
    var starts: [Int] = []
    var lastZone: String?
    while sqlite3_step(statement) == SQLITE_ROW {
        let zone = columnString(statement, 1)
        if zone != lastZone { starts.append(keys.count); lastZone = zone }
        keys.append(sqlite3_column_int64(statement, 0))
    }
    sqlite3_reset(statement)
    return (keys, starts)
}

extension BenchmarkCase {
    /// `performFetch` with sections against a plain fetch of the same request.
    nonisolated(unsafe) static let controllerFetch = BenchmarkCase(
        id: "frc-fetch",
        title: "controller performFetch, 32 sections",
        explanation: "`NSFetchedResultsController.performFetch()` on every team sorted by zone and name with `sectionNameKeyPath: \"zone\"` (32 sections), against a plain `fetch` of the same request (faults) in a fresh context.",
        targets: [Target(statement: "performFetch within 1.15x of a plain fetch", subject: "CoreData", base: "CoreData plain fetch", limit: 1.15)]
    ) { env in
        let url = env.storeURL("frc-fetch")
        let container = try StoreFiles.populatedStore(url, data: env.data, rows: env.rows)
        let queue = try GRDBStack.queue(url)
        let floor = try FloorDatabase(url)
        let select = try floor.prepare("SELECT Z_PK, ZZONE FROM ZTEAM ORDER BY ZZONE, ZNAME")
        return [
            Variant(label: "CoreData", role: .coreData) {
                let context = CoreDataStack.context(container)
                let controller = NSFetchedResultsController(fetchRequest: sectionedRequest(), managedObjectContext: context,
                                                            sectionNameKeyPath: "zone", cacheName: nil)
                let elapsed = try Stopwatch.milliseconds { try controller.performFetch() }
                guard controller.sections?.count == min(TeamData.zoneCount, env.rows) else { throw BenchError("frc-fetch: \(controller.sections?.count ?? 0) sections") }
                return elapsed
            },
            Variant(label: "CoreData plain fetch", role: .reference) {
                let context = CoreDataStack.context(container)
                return try Stopwatch.milliseconds { consume(try context.fetch(sectionedRequest())) }
            },
            Variant(label: "GRDB records", role: .grdbRecords) {
                try Stopwatch.milliseconds {
                    let teams = try queue.read { db in
                        try TeamReadRecord.order(TeamRecord.Columns.zone, TeamRecord.Columns.name).fetchAll(db)
                    }
                    var starts: [Int] = []
                    for (index, team) in teams.enumerated() where index == 0 || teams[index - 1].zone != team.zone { starts.append(index) }
                    consume(starts)
                }
            },
            Variant(label: "C sqlite3", role: .floor) {
                Stopwatch.milliseconds { consume(floorSectionedKeys(select)) }
            },
        ]
    }

    /// One object edited and saved while a controller watches every row.
    nonisolated(unsafe) static let controllerChange = BenchmarkCase(
        id: "frc-change",
        title: "controller, one object edited and saved",
        explanation: "With a sectioned controller over every team, renames one team so that it moves to the top of its section, saves, and stops at `controllerDidChangeContent`; compared with refetching the request and diffing old and new results.",
        targets: [
            Target(statement: "one-object change (edit, save, delegate) under 1 ms", subject: "CoreData", base: nil, limit: 1),
            Target(statement: "controller change vs. a full refetch + diff", subject: "CoreData", base: "CoreData refetch + diff", limit: .infinity, informational: true),
        ]
    ) { env in
        let url = env.storeURL("frc-change")
        let container = try StoreFiles.populatedStore(url, data: env.data, rows: env.rows)
        let context = CoreDataStack.context(container)
        let (controller, delegate) = try sectionedController(context)
        let teams = controller.fetchedObjects ?? []
        var round = 0
        func nextTeam() -> Team {
            round += 1
            return teams[(round &* 7919) % teams.count]
        }
        let floor = try FloorDatabase(url)
        let select = try floor.prepare("SELECT Z_PK, ZZONE FROM ZTEAM ORDER BY ZZONE, ZNAME")
        return [
            Variant(label: "CoreData", role: .coreData, repetitions: 25) {
                let team = nextTeam()
                let before = delegate.objectChanges
                let start = Stopwatch.nanoseconds()
                team.name = "A \(round) \(team.name ?? "")"
                try context.save()
                let saved = Stopwatch.nanoseconds()
                if delegate.objectChanges == before { drainMainQueue() }
                guard delegate.objectChanges > before, delegate.didChangeContentAt >= start else {
                    throw BenchError("frc-change: the delegate heard nothing")
                }
                return Double(max(saved, delegate.didChangeContentAt) - start) / 1e6
            },
            Variant(label: "CoreData edit, no save", role: .reference, repetitions: 25) {
                let team = nextTeam()
                let before = delegate.objectChanges
                let start = Stopwatch.nanoseconds()
                team.name = "B \(round) \(team.name ?? "")"
                context.processPendingChanges()
                guard delegate.objectChanges > before else { throw BenchError("frc-change: the delegate heard nothing") }
                let elapsed = Double(delegate.didChangeContentAt - start) / 1e6
                try context.save()
                return elapsed
            },
            Variant(label: "CoreData refetch + diff", role: .reference) {
                let old = (controller.fetchedObjects ?? []).map(\.objectID)
                let team = nextTeam()
                team.name = "C \(round) \(team.name ?? "")"
                return try Stopwatch.milliseconds {
                    let fresh = try context.fetch(sectionedRequest()).map(\.objectID)
                    consume(linearDifference(old: old, new: fresh))
                }
            },
            Variant(label: "C sqlite3", role: .floor) {
                Stopwatch.milliseconds { consume(floorSectionedKeys(select)) }
            },
        ]
    }

    /// A background save of 10,000 new objects merged into a watched view context.
    nonisolated(unsafe) static let controllerMerge = BenchmarkCase(
        id: "frc-merge",
        title: "merge 10k-object save into watched context",
        explanation: "A background context inserts 10,000 teams and saves; the time is `mergeChanges(fromContextDidSave:)` on the view context up to the controller's `controllerDidChangeContent` (10,000 inserts reported), against refetching the request and diffing.",
        targets: [
            Target(statement: "merge vs. a full refetch + diff", subject: "CoreData", base: "CoreData refetch + diff", limit: .infinity, informational: true),
        ]
    ) { env in
        let merged = CaseEnvironment.mergedCount
        let data = env.data
        let rows = env.rows
        return [
            Variant(label: "CoreData", role: .coreData) {
                let container = try StoreFiles.populatedStore(env.storeURL("frc-merge-coredata"), data: data, rows: rows)
                let view = CoreDataStack.context(container)
                let (controller, delegate) = try sectionedController(view)
                let background = container.newBackgroundContext()
                let received = NotificationBox()
                let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: background, queue: nil) { received.store($0) }
                try background.performAndWait {
                    CoreDataStack.insertTeams(rows..<(rows + merged), of: data, into: background)
                    try background.save()
                }
                NotificationCenter.default.removeObserver(observer)
                guard let saved = received.notification else { throw BenchError("frc-merge: no did-save notification") }
                let start = Stopwatch.nanoseconds()
                view.mergeChanges(fromContextDidSave: saved)
                let returned = Stopwatch.nanoseconds()
                if delegate.objectChanges == 0 { drainMainQueue() }
                guard delegate.objectChanges == merged, controller.fetchedObjects?.count == rows + merged else {
                    throw BenchError("frc-merge: \(delegate.objectChanges) changes reported, \(controller.fetchedObjects?.count ?? 0) objects")
                }
                drainMainQueue()
                return Double(max(returned, delegate.didChangeContentAt) - start) / 1e6
            },
            Variant(label: "CoreData refetch + diff", role: .reference) {
                let url = env.storeURL("frc-merge-refetch")
                let container = try StoreFiles.populatedStore(url, data: data, rows: rows)
                let view = CoreDataStack.context(container)
                let old = try view.fetch(sectionedRequest()).map(\.objectID)
                try StoreFiles.fill(url, data: data, range: rows..<(rows + merged), entity: try StoreFiles.templateEntityNumber(in: env.directory))
                return try Stopwatch.milliseconds {
                    let fresh = try view.fetch(sectionedRequest()).map(\.objectID)
                    consume(linearDifference(old: old, new: fresh))
                }
            },
            Variant(label: "GRDB records", role: .grdbRecords) {
                let url = env.storeURL("frc-merge-grdb")
                let container = try StoreFiles.populatedStore(url, data: data, rows: rows + merged)
                let queue = try GRDBStack.queue(url)
                defer { withExtendedLifetime(container) {} }
                return try Stopwatch.milliseconds {
                    consume(try queue.read { db in try TeamReadRecord.order(TeamRecord.Columns.zone, TeamRecord.Columns.name).fetchAll(db) })
                }
            },
            Variant(label: "C sqlite3", role: .floor) {
                let url = env.storeURL("frc-merge-floor")
                let container = try StoreFiles.populatedStore(url, data: data, rows: rows + merged)
                defer { withExtendedLifetime(container) {} }
                let floor = try FloorDatabase(url)
                let select = try floor.prepare("SELECT Z_PK, ZZONE FROM ZTEAM ORDER BY ZZONE, ZNAME")
                defer { sqlite3_finalize(select) }
                return Stopwatch.milliseconds { consume(floorSectionedKeys(select)) }
            },
        ]
    }
}

/// The did-save notification, handed from the saving queue to the measuring thread.
private final class NotificationBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Notification?

    func store(_ notification: Notification) { lock.withLock { stored = notification } }
    var notification: Notification? { lock.withLock { stored } }
}
