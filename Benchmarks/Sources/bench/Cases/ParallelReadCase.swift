import CoreData
import Foundation

extension BenchmarkCase {
    /// Two private contexts fetching at once against one fetching twice: the reader pool lets
    /// them read in parallel (2 cores: up to 2x the throughput).
    nonisolated(unsafe) static let parallelRead = BenchmarkCase(
        id: "parallel-read",
        title: "two contexts fetching in parallel vs one fetching twice",
        explanation: "Two private-queue contexts each fetch every team, materialised, at the same time; the reference is one context doing both fetches in turn. A time ratio of 0.59 is 1.7x the throughput.",
        targets: [
            Target(statement: "two parallel fetches within 0.59x the time of two in turn (>= 1.7x throughput)", subject: "CoreData two contexts at once", base: "CoreData one context, twice", limit: 0.59),
        ]
    ) { env in
        let container = try StoreFiles.populatedStore(env.storeURL("parallel-read"), data: env.data, rows: env.rows)
        /// Fetches every team materialised in a new private context; returns a checksum.
        @Sendable func fetchAll() -> Double {
            let context = container.newBackgroundContext()
            return context.performAndWait {
                let request = CoreDataStack.teamRequest()
                request.returnsObjectsAsFaults = false
                return ((try? context.fetch(request)) ?? []).reduce(0) { $0 + checksum($1) }
            }
        }
        return [
            Variant(label: "CoreData two contexts at once", role: .coreData) {
                Stopwatch.milliseconds {
                    DispatchQueue.concurrentPerform(iterations: 2) { _ in precondition(fetchAll() > 0) }
                }
            },
            Variant(label: "CoreData one context, twice", role: .reference) {
                Stopwatch.milliseconds {
                    for _ in 0..<2 { precondition(fetchAll() > 0) }
                }
            },
        ]
    }
}
