import CoreData
import StressFixtures
import Foundation
import Testing

/// Two processes, each with its own container on one SQLite file, incrementing the same
/// counters at once (Sources/CoreDataStress/Interleave.swift).
///
/// `CORE_DATA_INTERLEAVE_SECONDS` sets how long they run (3 by default).
/// Under NSOverwriteMergePolicy stale saves overwrite instead of conflicting: updates are lost by
/// design there (the run reports how many, showing the check sees them), but every failure is
/// still a Cocoa error and both processes end up seeing the same rows.
@Suite struct TwoProcessTests {
    static let counterCount = 6

    /// The child's report, as `Interleave.Report` encodes it.
    struct Report: Decodable {
        var writer: Int
        var saves: Int
        var conflicts: Int
        var otherErrors: [String]
        var staleReadsAfterRefresh: Int
        var committed: [String: [Int64]]
        var finalView: [String: Int64]
    }

    @Test func interleavedWritersLoseNoUpdateAndSeeEachOther() throws {
        let (reports, finals, lostUpdates) = try runWriters(policy: "error", seconds: environmentInt("CORE_DATA_INTERLEAVE_SECONDS", default: 3))
        #expect(lostUpdates == 0)
        for (name, final) in finals {
            // Each successful increment wrote a value no other increment wrote: 1...final, once each.
            let written = reports.flatMap { $0.committed[name] ?? [] }
            #expect(written.sorted() == Array(0..<final).map { $0 + 1 }, "\(name): final \(final), increments committed \(written.count)")
        }
        #expect(reports.allSatisfy { $0.staleReadsAfterRefresh == 0 }, "a refresh showed less than the writer had committed")
    }

    @Test func overwritingWritersFailOnlyWithCocoaErrorsAndAgreeAtTheEnd() throws {
        _ = try runWriters(policy: "overwrite", seconds: 2)
    }

    /// Runs both writers, checks what holds under every policy, and returns their reports, the
    /// final counter values and the number of lost updates.
    func runWriters(policy: String, seconds: Int) throws -> ([Report], [String: Int64], Int) {
        let directory = TemporaryDirectory()
        let store = directory.file("Shared.sqlite")
        do {
            let context = try makeContainer(model: StressModel.make(), storeURL: store).newBackgroundContext()
            try context.performAndWait {
                for index in 0..<Self.counterCount {
                    NSEntityDescription.insertNewObject(forEntityName: "Counter", into: context).setValue("c\(index)", forKey: "name")
                }
                try context.save()
            }
        }
        let writers = try (1...2).map { writer in
            try StressProcess(["interleave", "--store", store.path, "--seconds", String(seconds), "--writer", String(writer),
                               "--report", directory.file("report-\(writer).json").path,
                               "--merge-policy", policy,
                               "--peer-done", directory.file("report-\(3 - writer).json.done").path],
                              errorLog: directory.file("stderr-\(writer).txt"))
        }
        for writer in writers {
            let failure = writer.waitForSuccess()
            #expect(failure == nil, "a writer failed: \(failure ?? "")")
        }
        let reports = try (1...2).map { try JSONDecoder().decode(Report.self, from: Data(contentsOf: directory.file("report-\($0).json"))) }

        let context = try makeContainer(model: StressModel.make(), storeURL: store).newBackgroundContext()
        let finals: [String: Int64] = try context.performAndWait {
            Dictionary(uniqueKeysWithValues: try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Counter")).map { ($0.string("name") ?? "", $0.int64("value")) })
        }
        #expect(finals.count == Self.counterCount)
        let lostUpdates = finals.keys.map { name in reports.flatMap { $0.committed[name] ?? [] }.count - Int(finals[name]!) }.reduce(0, +)
        let saves = reports.map(\.saves).reduce(0, +)
        let conflicts = reports.map(\.conflicts).reduce(0, +)
        print("two processes, \(policy) merge policy: \(seconds) s, \(saves) saves committed, \(conflicts) conflicts reported as 133020, \(lostUpdates) lost updates, \(reports.flatMap(\.otherErrors).count) other errors")
        #expect(reports.allSatisfy { $0.otherErrors.isEmpty }, "errors other than 133020: \(reports.flatMap(\.otherErrors).prefix(3))")
        // Once both stopped, each process's refresh shows every change the other committed.
        for report in reports { #expect(report.finalView == finals, "writer \(report.writer) sees \(report.finalView), the store holds \(finals)") }
        #expect(reports.allSatisfy { $0.saves > 0 }, "each writer committed something")
        #expect(try StoreInspection.integrityCheck(store.path) == "ok")
        return (reports, finals, lostUpdates)
    }
}
