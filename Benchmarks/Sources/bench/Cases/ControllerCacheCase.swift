import CoreData

extension BenchmarkCase {
    /// A second launch of a sectioned controller, with and without its on-disk section cache.
    nonisolated(unsafe) static let controllerCache = BenchmarkCase(
        id: "frc-cache",
        title: "controller second launch, cache vs none",
        explanation: "A first controller with `cacheName` fetches and goes away (writing its section cache); timed is a second launch: a new context and controller with the same cache name and request calling `performFetch()`, against the same controller with no cache name.",
        targets: [Target(statement: "second launch with a cache vs without (informational)", subject: "CoreData cached", base: "CoreData uncached", limit: 1, informational: true)]
    ) { env in
        let url = env.storeURL("frc-cache")
        let container = try StoreFiles.populatedStore(url, data: env.data, rows: env.rows)
        let cacheName = "bench-\(UUID().uuidString.prefix(8))"
        do {
            let firstLaunch = NSFetchedResultsController(fetchRequest: sectionedRequest(), managedObjectContext: CoreDataStack.context(container),
                                                         sectionNameKeyPath: "zone", cacheName: cacheName)
            try firstLaunch.performFetch()
        }
        func launch(cacheName: String?) throws -> Double {
            let controller = NSFetchedResultsController(fetchRequest: sectionedRequest(), managedObjectContext: CoreDataStack.context(container),
                                                        sectionNameKeyPath: "zone", cacheName: cacheName)
            let elapsed = try Stopwatch.milliseconds { try controller.performFetch() }
            guard controller.sections?.count == min(TeamData.zoneCount, env.rows) else {
                throw BenchError("frc-cache: \(controller.sections?.count ?? 0) sections")
            }
            return elapsed
        }
        return [
            Variant(label: "CoreData cached", role: .coreData) { try launch(cacheName: cacheName) },
            Variant(label: "CoreData uncached", role: .reference) { try launch(cacheName: nil) },
        ]
    }
}
