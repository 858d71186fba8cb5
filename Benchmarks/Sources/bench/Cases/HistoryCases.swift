import CoreData
import Foundation

extension BenchmarkCase {
    /// What recording persistent history costs a save: the insert case with and without
    /// `NSPersistentHistoryTrackingKey`.
    nonisolated(unsafe) static let historyInsert = BenchmarkCase(
        id: "history-insert",
        title: "insert + save with persistent history",
        explanation: "The insert case (every team created and saved in one transaction into a new store file), with persistent history tracking on: one ATRANSACTION row and one ACHANGE row per object in the same SQLite transaction. The reference is the same save without tracking.",
        targets: [
            Target(statement: "history tracking adds at most 30% to insert + save", subject: "CoreData with history", base: "CoreData without history", limit: 1.3),
        ]
    ) { env in
        func insertAll(history: Bool) throws -> Double {
            let container = try CoreDataStack.container(at: env.storeURL("history-insert"), options: history ? CoreDataStack.historyOptions : [:])
            let context = CoreDataStack.context(container)
            let elapsed = try Stopwatch.milliseconds {
                CoreDataStack.insertTeams(0..<env.rows, of: env.data, into: context)
                try context.save()
            }
            drainMainQueue()
            return elapsed
        }
        return [
            Variant(label: "CoreData with history", role: .coreData) { try insertAll(history: true) },
            Variant(label: "CoreData without history", role: .reference) { try insertAll(history: false) },
        ]
    }

    /// A save in another process reaching this process's fetched results controller: the
    /// child (this program, `--history-writer`) saves; this process hears the remote change,
    /// fetches the history after its token, merges it, and the controller reports.
    nonisolated(unsafe) static let remoteChange = BenchmarkCase(
        id: "remote-change",
        title: "another process's save to this controller, \(HistoryWriterChild.saves) saves",
        explanation: "A child process saves one change at a time (\(HistoryWriterChild.saves) saves, \(HistoryWriterChild.pauseMilliseconds) ms apart: inserts, wins changes that move a team, deletes) to a store with persistent history and remote change notifications. This process waits for `.NSPersistentStoreRemoteChange`, fetches the history after its token, merges each transaction into the view context and its sectioned controller reports. Figures: milliseconds from the child's `save()` returning to the merge returning after `controllerDidChangeContent`, the median and the 99th percentile of one run.",
        targets: [
            Target(statement: "99% of remote saves reach the controller within 100 ms", subject: "CoreData p99", base: nil, limit: 100),
        ]
    ) { env in
        var delays: [Double] = []
        return [
            Variant(label: "CoreData p50", role: .coreData, warmups: 0, repetitions: 1) {
                delays = try RemoteChangeExchange(directory: env.directory).run().sorted()
                return delays[delays.count / 2]
            },
            Variant(label: "CoreData p99", role: .reference, warmups: 0, repetitions: 1) {
                delays[delays.count * 99 / 100]
            },
        ]
    }
}
