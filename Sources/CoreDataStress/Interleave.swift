import CoreData
import StressFixtures

/// `interleave`: one of several writers incrementing shared counters in the same store (a SQLite
/// file, or a PostgreSQL schema) for a fixed time, recording each increment it committed.
///
/// Half of the increments start from a refreshed object, half from whatever the context last
/// read, so a stale read that would overwrite the other writer's increment must fail with
/// 133020 (optimistic locking) instead. The report lists, per counter, the values this writer's
/// successful saves wrote: across all writers they must be exactly 1...final, each once (less any
/// unconfirmed values, see `InterleaveReport.unconfirmed`).
struct Interleave {
    let storePath: String
    let seconds: Double
    let writer: Int
    let reportPath: String
    /// Files the other writers create when they stop writing; once they all exist, this writer
    /// refreshes every counter and reports what it sees (which must be the final values).
    let peerDonePaths: [String]
    /// The merge policy, to show the check catching lost updates (`overwrite`); `error` otherwise.
    let mergePolicy: String

    func run() throws {
        let container = try StressModel.container(path: storePath)
        let context = container.newBackgroundContext()
        if mergePolicy == "overwrite" { context.mergePolicy = NSOverwriteMergePolicy }
        var report = InterleaveReport(writer: writer)
        let deadline = Date().addingTimeInterval(seconds)
        try context.performAndWait {
            let counters = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Counter"))
                .sorted { ($0.value(forKey: "name") as? String ?? "") < ($1.value(forKey: "name") as? String ?? "") }
            guard counters.count == StressModel.interleavedCounterCount else { throw StressFailure("expected \(StressModel.interleavedCounterCount) counters, found \(counters.count)") }
            var lastCommitted = [Int64](repeating: 0, count: counters.count)
            while Date() < deadline {
                // One or two counters per save: a two-row save must commit or conflict whole.
                let first = Int.random(in: 0..<counters.count)
                let picked = Bool.random() ? [first] : [first, (first + 1) % counters.count]
                var written: [(Int, Int64)] = []
                for index in picked {
                    let counter = counters[index]
                    if Bool.random() {
                        context.refresh(counter, mergeChanges: false)
                        // A refresh while the server is away reads nothing (and the save fails).
                        if let value = counter.value(forKey: "value") as? NSNumber, value.int64Value < lastCommitted[index] {
                            report.staleReadsAfterRefresh += 1
                        }
                    }
                    let value = counter.int64("value") + 1
                    counter.setValue(value, forKey: "value")
                    counter.setValue("writer \(writer)", forKey: "lastWriter")
                    written.append((index, value))
                }
                do {
                    try context.save()
                    report.saves += 1
                    if report.unreachableSaves > 0 { report.savesAfterUnreachable += 1 }
                    for (index, value) in written {
                        report.committed[counters[index].string("name") ?? "", default: []].append(value)
                        lastCommitted[index] = value
                    }
                } catch let error as NSError where error.domain == NSCocoaErrorDomain && error.code == NSManagedObjectMergeError {
                    report.conflicts += 1
                    context.rollback()
                } catch let error as NSError where error.userInfo[PostgreSQLErrorKeys.connectionLost] as? Bool == true {
                    report.unreachableSaves += 1
                    for (index, value) in written { report.unconfirmed[counters[index].string("name") ?? "", default: []].append(value) }
                    context.rollback()
                } catch {
                    report.otherErrors.append(String(describing: error))
                    context.rollback()
                }
            }
            try Data().write(to: URL(fileURLWithPath: reportPath + ".done"))
            if !peerDonePaths.isEmpty {
                for path in peerDonePaths { _ = waitForFile(path, timeout: 60) }
                for counter in counters {
                    context.refresh(counter, mergeChanges: false)
                    report.finalView[counter.value(forKey: "name") as? String ?? ""] = counter.int64("value")
                }
            }
        }
        let data = try JSONEncoder().encode(report)
        try data.write(to: URL(fileURLWithPath: reportPath))
    }
}

/// Polls for a file to exist; false if it did not within `timeout` seconds.
func waitForFile(_ path: String, timeout: TimeInterval) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !FileManager.default.fileExists(atPath: path) {
        if Date() > deadline { return false }
        usleep(1_000)
    }
    return true
}
