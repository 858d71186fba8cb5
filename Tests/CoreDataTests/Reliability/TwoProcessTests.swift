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
    @Test func interleavedWritersLoseNoUpdateAndSeeEachOther() throws {
        let directory = TemporaryDirectory()
        let store = directory.file("Shared.sqlite").path
        let outcome = try InterleavedWriters(store: store, writers: 2, policy: "error",
                                             seconds: environmentInt("CORE_DATA_INTERLEAVE_SECONDS", default: 3)).run(in: directory)
        #expect(outcome.lostUpdates == 0)
        // Each successful increment wrote a value no other increment wrote: 1...final, once each.
        #expect(outcome.uncommittedValues.values.allSatisfy { $0.isEmpty }, "\(outcome.uncommittedValues)")
        #expect(outcome.reports.allSatisfy { $0.staleReadsAfterRefresh == 0 }, "a refresh showed less than the writer had committed")
        #expect(try StoreInspection.integrityCheck(store) == "ok")
    }

    @Test func overwritingWritersFailOnlyWithCocoaErrorsAndAgreeAtTheEnd() throws {
        let directory = TemporaryDirectory()
        let store = directory.file("Shared.sqlite").path
        _ = try InterleavedWriters(store: store, writers: 2, policy: "overwrite", seconds: 2).run(in: directory)
        #expect(try StoreInspection.integrityCheck(store) == "ok")
    }
}
