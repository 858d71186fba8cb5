@testable import CoreData
import Foundation
import Testing

/// Timings through the whole stack, printed, never asserted. Opt in with `FRC_BENCHMARK=1`
/// (a release build gives the meaningful numbers: `swift test -c release`).
@MainActor @Suite(.enabled(if: ProcessInfo.processInfo.environment["FRC_BENCHMARK"] != nil))
struct ControllerBenchmarkTests {
    static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    /// A delegate doing as little as a table would: counting.
    final class CountingDelegate: NSFetchedResultsControllerDelegate {
        var objectChanges = 0
        func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
            objectChanges += 1
        }
    }

    @Test func oneChangeAmongManyRows() throws {
        let count = Int(ProcessInfo.processInfo.environment["FRC_BENCHMARK_ROWS"] ?? "") ?? 100_000
        let container = try makeContainer("Bench", model: ControllerModels.worldCup(), storeURL: nil, type: NSInMemoryStoreType)
        let context = container.viewContext
        let insert = try Self.milliseconds {
            for index in 0..<count {
                let team = WorldCupTeam(context: context)
                team.teamName = "Team \(index)"
                team.qualifyingZone = "Zone \(index % 32)"
                team.wins = Int32(index % 1000)
            }
            try context.save()
        }
        let controller = NSFetchedResultsController(
            fetchRequest: worldCupRequest(), managedObjectContext: context,
            sectionNameKeyPath: "qualifyingZone", cacheName: nil)
        let delegate = CountingDelegate()
        controller.delegate = delegate
        let fetch = try Self.milliseconds { try controller.performFetch() }
        let teams = controller.fetchedObjects!
        var singles: [Double] = []
        for round in 0..<50 {
            let team = teams[(round * 7919) % teams.count]
            singles.append(Self.milliseconds {
                team.wins += 1
                context.processPendingChanges()
            })
        }
        singles.sort()
        let refetch = Self.milliseconds { context.refreshAllObjects() }
        print("""
            FRC benchmark, \(count) rows in 32 sections: insert+save \(Int(insert)) ms, performFetch \(Int(fetch)) ms, \
            one change (edit + processPendingChanges + delegate) median \(String(format: "%.3f", singles[singles.count / 2])) ms, \
            refreshAllObjects (refetch + linear diff) \(Int(refetch)) ms
            """)
        #expect(delegate.objectChanges >= 50)
    }
}
