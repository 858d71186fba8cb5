import CoreData
import Foundation
import StressFixtures
import Testing

/// Several `CoreDataStress interleave` processes incrementing the same counters in one store (a
/// SQLite file, or a PostgreSQL schema when `store` is a `postgres://` URL), and the checks that
/// hold for every store and merge policy.
struct InterleavedWriters {
    let store: String
    let writers: Int
    /// `error` (stale saves conflict) or `overwrite` (they win, and updates are lost by design).
    let policy: String
    let seconds: Int

    /// The writers' reports and the counters' values once they all stopped.
    struct Outcome {
        var reports: [InterleaveReport]
        var finals: [String: Int64]

        /// Increments committed but not in the final counts: values two saves both wrote, or
        /// values above the final count.
        var lostUpdates: Int {
            finals.map { name, final in
                let committed = reports.flatMap { $0.committed[name] ?? [] }
                return committed.count - Set(committed).filter { $0 >= 1 && $0 <= final }.count
            }.reduce(0, +)
        }

        /// Counter name → the values from 1 to its final value that no writer committed: each
        /// must be the value of an unconfirmed save (one whose answer the server never sent).
        var uncommittedValues: [String: Set<Int64>] {
            finals.reduce(into: [:]) { result, counter in
                let committed = reports.flatMap { $0.committed[counter.key] ?? [] }
                result[counter.key] = Set((0..<counter.value).map { $0 + 1 }).subtracting(committed)
            }
        }

        var saves: Int { reports.map(\.saves).reduce(0, +) }
        var conflicts: Int { reports.map(\.conflicts).reduce(0, +) }
        var unreachableSaves: Int { reports.map(\.unreachableSaves).reduce(0, +) }
    }

    /// Seeds the counters, runs the writers (calling `meanwhile` once they are started), and
    /// checks what holds under every policy: no errors but conflicts and an unreachable server,
    /// every writer committed something, and after they stopped each sees the final values.
    func run(in directory: TemporaryDirectory, meanwhile: () throws -> Void = {}) throws -> Outcome {
        do {
            let context = try StressModel.container(path: store).newBackgroundContext()
            try context.performAndWait {
                for index in 0..<StressModel.interleavedCounterCount {
                    NSEntityDescription.insertNewObject(forEntityName: "Counter", into: context).setValue("c\(index)", forKey: "name")
                }
                try context.save()
            }
        }
        let done = (1...writers).map { directory.file("report-\($0).json.done").path }
        let processes = try (1...writers).map { writer in
            try StressProcess(["interleave", "--store", store, "--seconds", String(seconds), "--writer", String(writer),
                               "--report", directory.file("report-\(writer).json").path, "--merge-policy", policy,
                               "--peer-done", done.enumerated().filter { $0.offset + 1 != writer }.map(\.element).joined(separator: ",")],
                              errorLog: directory.file("stderr-\(writer).txt"))
        }
        try meanwhile()
        for process in processes {
            let failure = process.waitForSuccess()
            #expect(failure == nil, "a writer failed: \(failure ?? "")")
        }
        let reports = try (1...writers).map { try JSONDecoder().decode(InterleaveReport.self, from: Data(contentsOf: directory.file("report-\($0).json"))) }

        let context = try StressModel.container(path: store).newBackgroundContext()
        let finals: [String: Int64] = try context.performAndWait {
            Dictionary(uniqueKeysWithValues: try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Counter")).map { ($0.string("name") ?? "", $0.int64("value")) })
        }
        let outcome = Outcome(reports: reports, finals: finals)
        #expect(finals.count == StressModel.interleavedCounterCount)
        print("\(writers) writers, \(policy) merge policy: \(seconds) s, \(outcome.saves) saves committed "
              + "(\(String(format: "%.0f", Double(outcome.saves) / Double(seconds))) a second), \(outcome.conflicts) conflicts reported as 133020, "
              + "\(outcome.unreachableSaves) failed with the server unreachable, \(outcome.lostUpdates) lost updates, "
              + "\(reports.flatMap(\.otherErrors).count) other errors")
        #expect(reports.allSatisfy { $0.otherErrors.isEmpty }, "errors other than 133020: \(reports.flatMap(\.otherErrors).prefix(3))")
        // Once all stopped, each process's refresh shows every change the others committed.
        for report in reports { #expect(report.finalView == finals, "writer \(report.writer) sees \(report.finalView), the store holds \(finals)") }
        #expect(reports.allSatisfy { $0.saves > 0 }, "each writer committed something")
        return outcome
    }
}
