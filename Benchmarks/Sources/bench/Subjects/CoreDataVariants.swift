import CoreData

/// Our side of the cases that run on SQLite and on PostgreSQL, written once: the same calls
/// timed on whichever store the container opened.
enum CoreDataVariants {
    /// Inserts `rows` teams into the empty store `container` opens, then saves once, on a
    /// main-queue context from the main thread.
    static func insert(rows: Int, of data: TeamData, container: @escaping () throws -> NSPersistentContainer) -> Variant {
        Variant(label: "CoreData", role: .coreData) {
            let context = CoreDataStack.context(try container())
            let elapsed = try Stopwatch.milliseconds {
                CoreDataStack.insertTeams(0..<rows, of: data, into: context)
                try context.save()
            }
            drainMainQueue()
            return elapsed
        }
    }

    /// The same insert and save on a private-queue context, in one `performAndWait`: the kind
    /// of context a SwiftData `ModelContext` runs on. Its block ends as that context's save
    /// does, by letting go of the saved objects nobody holds, which a main-queue context used
    /// from the main thread leaves to a later fetch.
    static func insertOnPrivateQueue(rows: Int, of data: TeamData, container: @escaping () throws -> NSPersistentContainer) -> Variant {
        Variant(label: "CoreData", role: .coreData) {
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = try container().persistentStoreCoordinator
            return try Stopwatch.milliseconds {
                try context.performAndWait {
                    CoreDataStack.insertTeams(0..<rows, of: data, into: context)
                    try context.save()
                }
            }
        }
    }

    /// Fetches every team as a materialised object and reads all five attributes.
    static func fetchObjects(_ container: NSPersistentContainer) -> Variant {
        Variant(label: "CoreData", role: .coreData) {
            let context = CoreDataStack.context(container)
            let request = CoreDataStack.teamRequest()
            request.returnsObjectsAsFaults = false
            return try Stopwatch.milliseconds {
                let teams = try context.fetch(request)
                var sum = 0.0
                for team in teams { sum += checksum(team) }
                consume(sum)
            }
        }
    }

    /// Fetches the teams `CoreDataStack.filteredPredicate` matches, by zone then best score,
    /// materialised, and reads one attribute of each.
    static func fetchFiltered(_ container: NSPersistentContainer) -> Variant {
        Variant(label: "CoreData", role: .coreData) {
            let context = CoreDataStack.context(container)
            let request = CoreDataStack.teamRequest()
            request.predicate = CoreDataStack.filteredPredicate
            request.sortDescriptors = [NSSortDescriptor(key: "zone", ascending: true), NSSortDescriptor(key: "score", ascending: false)]
            request.returnsObjectsAsFaults = false
            return try Stopwatch.milliseconds {
                var sum = 0.0
                for team in try context.fetch(request) { sum += team.score }
                consume(sum)
            }
        }
    }

    /// Counts the teams `CoreDataStack.filteredPredicate` matches; `check` judges the count.
    static func count(_ context: NSManagedObjectContext, check: @escaping (Int) throws -> Void) -> Variant {
        Variant(label: "CoreData", role: .coreData) {
            let request = CoreDataStack.teamRequest()
            request.predicate = CoreDataStack.filteredPredicate
            var result = 0
            let elapsed = try Stopwatch.milliseconds { result = try context.count(for: request) }
            try check(result)
            return elapsed
        }
    }
}
