#if canImport(CoreDataPostgreSQL)
import CoreDataPostgreSQL
import Foundation
import StressFixtures
import Testing

extension PostgreSQLSuites {
    /// Several processes on one PostgreSQL schema, as several machines would be: the
    /// `CoreDataStress` program run as children (Sources/CoreDataStress), sharing only the server.
    @Suite struct PostgreSQLProcessTests {
        /// Three processes each save and each watch every save through history and a controller;
        /// the controllers replay to one final state, and the delay from one process's commit to
        /// another's `controllerDidChangeContent` is measured over 500 saves.
        @Test func threeProcessesControllersReplayToOneState() throws {
            let (replicas, totalSaves) = (3, environmentInt("CORE_DATA_LIVE_SAVES", default: 500))
            let directory = TemporaryDirectory()
            let store = try PostgreSQLTestServer.freshStoreURL().absoluteString
            // The schema exists before the replicas race to open it.
            _ = try StressModel.container(path: store, options: [NSPersistentHistoryTrackingKey: true as NSNumber])
            let processes = try (1...replicas).map { replica in
                try StressProcess(["live-replica", "--store", store, "--replica", String(replica), "--replicas", String(replicas),
                                   "--saves", String((totalSaves + replicas - replica) / replicas), "--interval-ms", "10",
                                   "--signal-folder", directory.url.path, "--commit-log", directory.file("commits-\(replica).log").path,
                                   "--report", directory.file("report-\(replica).json").path],
                                  errorLog: directory.file("stderr-\(replica).txt"))
            }
            for process in processes {
                let failure = process.waitForSuccess()
                #expect(failure == nil, "a replica failed: \(failure ?? "")")
            }
            let reports = try (1...replicas).map { try JSONDecoder().decode(LiveReplicaReport.self, from: Data(contentsOf: directory.file("report-\($0).json"))) }
            let commits = try (1...replicas).map { replica in
                try String(contentsOf: directory.file("commits-\(replica).log"), encoding: .utf8).split(separator: "\n").map { line in
                    let fields = line.split(separator: " ")
                    return (author: String(fields[0]), time: Double(fields[1]) ?? 0, replica: replica)
                }
            }.joined()
            #expect(commits.count == totalSaves)

            var delays: [Double] = []
            for report in reports {
                #expect(report.replayMismatches.isEmpty, "replica \(report.replica): \(report.replayMismatches.prefix(3))")
                #expect(report.silentTransactions.isEmpty, "replica \(report.replica): merges without a report: \(report.silentTransactions.prefix(3))")
                for commit in commits where commit.replica != report.replica {
                    guard let delivered = report.deliveries[commit.author] else {
                        Issue.record("replica \(report.replica) never reported \(commit.author)")
                        continue
                    }
                    delays.append((delivered - commit.time) * 1000)
                }
                #expect(report.controllerSections == report.fetchedSections, "replica \(report.replica)'s controller differs from its fetch")
                #expect(report.controllerSections == reports[0].controllerSections, "replicas 1 and \(report.replica) end in different states")
            }
            let check = try StressModel.container(path: store).viewContext
            let stored = try check.count(for: NSFetchRequest<NSManagedObject>(entityName: "Item"))
            #expect(reports[0].controllerSections.map(\.serials.count).reduce(0, +) == stored)
            #expect(stored > 0)

            delays.sort()
            #expect(delays.count == commits.count * (replicas - 1))
            if !delays.isEmpty {
                print("three processes on PostgreSQL: \(commits.count) saves, commit to another process's controllerDidChangeContent "
                      + "over \(delays.count) deliveries: p50 \(String(format: "%.1f", delays[delays.count / 2])) ms, "
                      + "p99 \(String(format: "%.1f", delays[delays.count * 99 / 100])) ms, max \(String(format: "%.1f", delays.last!)) ms")
            }
        }

        /// Eight processes open the same brand-new schema at one moment, round after round:
        /// every one loads the store and saves, one of them creates the schema and its tables,
        /// and no `CREATE SCHEMA` or `CREATE TABLE` race reaches a caller (issue 31).
        @Test func eightProcessesCreateOneNewSchemaTogether() throws {
            let (writers, rounds) = (8, environmentInt("CORE_DATA_FIRST_OPEN_ROUNDS", default: 25))
            let directory = TemporaryDirectory()
            for round in 1...rounds {
                let store = try PostgreSQLTestServer.freshStoreURL().absoluteString
                // Far enough ahead for every child to have started and be waiting.
                let startTime = Date().timeIntervalSince1970 + 1.5
                let processes = try (1...writers).map { writer in
                    try StressProcess(["first-open", "--store", store, "--writer", String(writer), "--start-time", String(startTime)],
                                      errorLog: directory.file("stderr-\(round)-\(writer).txt"))
                }
                let failures = processes.compactMap { $0.waitForSuccess() }
                #expect(failures.isEmpty, "round \(round): \(failures.count) of \(writers) failed: \(failures.first ?? "")")
                let context = try StressModel.container(path: store).viewContext
                let batches = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item")).map { $0.int64("batch") }
                #expect(batches.sorted() == (1...Int64(writers)).map { $0 }, "round \(round)")
            }
        }

        /// Eight processes increment shared counters for 30 s while the server is stopped and
        /// started again in the middle: no committed increment is lost, every failed save is
        /// reported (133020 for a conflict, `PostgreSQLConnectionLost` while the server is away),
        /// and every writer goes on saving once it is back.
        @Test func eightWritersLoseNoUpdateThroughAServerRestart() throws {
            let seconds = environmentInt("CORE_DATA_PG_WRITERS_SECONDS", default: 30)
            let directory = TemporaryDirectory()
            let store = try PostgreSQLTestServer.freshStoreURL().absoluteString
            let outcome = try InterleavedWriters(store: store, writers: 8, policy: "error", seconds: seconds).run(in: directory) {
                Thread.sleep(forTimeInterval: Double(seconds) * 0.4)
                try PostgreSQLTestServer.stop()
                Thread.sleep(forTimeInterval: 1)
                try PostgreSQLTestServer.start()
            }
            #expect(outcome.lostUpdates == 0)
            // Each value up to a counter's final count was written by a committed save, or by a
            // save whose answer the restart cut off (which may have committed all the same).
            for (name, values) in outcome.uncommittedValues {
                let unconfirmed = Set(outcome.reports.flatMap { $0.unconfirmed[name] ?? [] })
                #expect(values.isSubset(of: unconfirmed), "\(name): \(values.subtracting(unconfirmed).sorted()) counted but never saved")
            }
            #expect(outcome.reports.allSatisfy { $0.staleReadsAfterRefresh == 0 }, "a refresh showed less than the writer had committed")
            #expect(outcome.unreachableSaves > 0, "no save met the stopped server")
            for report in outcome.reports where report.unreachableSaves > 0 {
                #expect(report.savesAfterUnreachable > 0, "writer \(report.writer) saved nothing after the restart")
            }
        }
    }
}
#endif
