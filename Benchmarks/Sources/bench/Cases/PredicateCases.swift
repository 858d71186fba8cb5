import BenchSQLite
import CoreData

extension BenchmarkCase {
    /// The predicate language itself: parsing, and judging rows in SQL versus in memory.
    nonisolated(unsafe) static let predicateEvaluation = BenchmarkCase(
        id: "predicate",
        title: "predicate: parse, SQL vs in memory",
        explanation: "Parses a five-clause format string 1,000 times, then finds the rows matching `wins >= 500 AND zone != 'Zone 03'` by SQL (object IDs) and by `evaluate(with:)` over every object already in memory.",
        targets: [Target(statement: "SQL filtering vs judging loaded objects in memory (informational)", subject: "CoreData in memory", base: "CoreData SQL", limit: 1, informational: true)]
    ) { env in
        let url = env.storeURL("predicate")
        let container = try StoreFiles.populatedStore(url, data: env.data, rows: env.rows)
        let context = CoreDataStack.context(container)
        let loaded = try context.fetch(CoreDataStack.teamRequest())
        for team in loaded { _ = team.wins }
        let predicate = CoreDataStack.filteredPredicate
        let floor = try FloorDatabase(url)
        let select = try floor.prepare("SELECT Z_PK FROM ZTEAM WHERE ZWINS >= ? AND ZZONE != ?")
        let expected = try context.count(for: {
            let request = CoreDataStack.teamRequest()
            request.predicate = predicate
            return request
        }())
        func check(_ count: Int) throws {
            if count != expected { throw BenchError("predicate: \(count) matches, expected \(expected)") }
        }
        return [
            Variant(label: "parse x1000", role: .reference) {
                try Stopwatch.milliseconds {
                    for index in 0..<1_000 {
                        _ = try NSPredicate.parse(format: "(wins >= %d AND zone != %@) OR (name BEGINSWITH[cd] %@ AND score BETWEEN {%f, %f})",
                                                  index, "Zone 03", "team", 1.5, 99.5)
                    }
                }
            },
            Variant(label: "CoreData SQL", role: .coreData) {
                let request = NSFetchRequest<NSManagedObjectID>(entityName: "Team")
                request.resultType = .managedObjectIDResultType
                request.predicate = predicate
                var count = 0
                let elapsed = try Stopwatch.milliseconds { count = try context.fetch(request).count }
                try check(count)
                return elapsed
            },
            Variant(label: "CoreData in memory", role: .reference) {
                var count = 0
                let elapsed = Stopwatch.milliseconds { count = loaded.filter { predicate.evaluate(with: $0) }.count }
                try check(count)
                return elapsed
            },
            Variant(label: "C sqlite3", role: .floor) {
                var count = 0
                let elapsed = Stopwatch.milliseconds {
                    sqlite3_bind_int64(select, 1, Int64(TeamSQL.winsThreshold))
                    sqlite3_bind_text(select, 2, TeamSQL.excludedZone, -1, sqliteTransient)
                    while sqlite3_step(select) == SQLITE_ROW { count += 1 }
                    sqlite3_reset(select)
                }
                try check(count)
                return elapsed
            },
        ]
    }
}
