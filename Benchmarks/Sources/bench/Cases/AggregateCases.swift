import BenchSQLite
import CoreData
import GRDB

extension BenchmarkCase {
    /// COUNT with a predicate.
    nonisolated(unsafe) static let count = BenchmarkCase(
        id: "count",
        title: "count with predicate",
        explanation: "Counts the teams matching `wins >= 500 AND zone != 'Zone 03'` (`count(for:)`; `SELECT COUNT(*)` elsewhere); the reference fetches the matching objects and counts the array, in a fresh context.",
        targets: [
            Target(statement: "count within 1.2x of the C floor", subject: "CoreData", base: "C sqlite3", limit: 1.2),
            Target(statement: "count(for:) vs. fetching the objects and counting them", subject: "CoreData", base: "CoreData fetch objects", limit: .infinity, informational: true),
        ]
    ) { env in
        let url = env.storeURL("count")
        let container = try StoreFiles.populatedStore(url, data: env.data, rows: env.rows)
        let context = CoreDataStack.context(container)
        let queue = try GRDBStack.queue(url)
        let floor = try FloorDatabase(url)
        let select = try floor.prepare(TeamSQL.count)
        let expected = Int(try floor.integer("SELECT COUNT(*) FROM ZTEAM WHERE ZWINS >= \(TeamSQL.winsThreshold) AND ZZONE != '\(TeamSQL.excludedZone)'"))
        func check(_ count: Int) throws {
            if count != expected { throw BenchError("count: \(count), expected \(expected)") }
        }
        return [
            CoreDataVariants.count(context, check: check),
            Variant(label: "CoreData fetch objects", role: .reference) {
                let fresh = CoreDataStack.context(container)
                let request = CoreDataStack.teamRequest()
                request.predicate = CoreDataStack.filteredPredicate
                var result = 0
                let elapsed = try Stopwatch.milliseconds { result = try fresh.fetch(request).count }
                try check(result)
                return elapsed
            },
            Variant(label: "GRDB records", role: .grdbRecords) {
                var result = 0
                let elapsed = try Stopwatch.milliseconds {
                    result = try queue.read { db in
                        try TeamRecord.filter(TeamRecord.Columns.wins >= TeamSQL.winsThreshold && TeamRecord.Columns.zone != TeamSQL.excludedZone).fetchCount(db)
                    }
                }
                try check(result)
                return elapsed
            },
            Variant(label: "GRDB rows", role: .grdbRows) {
                var result = 0
                let elapsed = try Stopwatch.milliseconds {
                    result = try queue.read { db in
                        try Int.fetchOne(db, sql: TeamSQL.count, arguments: [TeamSQL.winsThreshold, TeamSQL.excludedZone]) ?? 0
                    }
                }
                try check(result)
                return elapsed
            },
            Variant(label: "C sqlite3", role: .floor) {
                var result = 0
                let elapsed = Stopwatch.milliseconds {
                    sqlite3_bind_int64(select, 1, Int64(TeamSQL.winsThreshold))
                    sqlite3_bind_text(select, 2, TeamSQL.excludedZone, -1, sqliteTransient)
                    if sqlite3_step(select) == SQLITE_ROW { result = Int(sqlite3_column_int64(select, 0)) }
                    sqlite3_reset(select)
                }
                try check(result)
                return elapsed
            },
        ]
    }

    /// SUM(score) grouped by zone, as dictionaries.
    nonisolated(unsafe) static let sumByZone = BenchmarkCase(
        id: "sum-by-zone",
        title: "sum grouped by zone",
        explanation: "Sums `score` per zone: a dictionary-result fetch with an `NSExpressionDescription` for `sum:(score)` and `propertiesToGroupBy = [zone]` (32 rows out); `GROUP BY` elsewhere.",
        targets: [Target(statement: "sum/group-by within 1.2x of the C floor", subject: "CoreData", base: "C sqlite3", limit: 1.2)],
        notes: { _ in
            SumByZoneRequest.usesExpressionDescription ? [] : [
                "this build has no NSExpressionDescription: CoreData fetches zone and score as dictionaries and sums in Swift",
            ]
        }
    ) { env in
        let url = env.storeURL("sum")
        let container = try StoreFiles.populatedStore(url, data: env.data, rows: env.rows)
        let queue = try GRDBStack.queue(url)
        let floor = try FloorDatabase(url)
        let select = try floor.prepare(TeamSQL.sumByZone)
        func check(_ groups: Int) throws {
            if groups != min(TeamData.zoneCount, env.rows) { throw BenchError("sum-by-zone: \(groups) groups") }
        }
        return [
            Variant(label: "CoreData", role: .coreData) {
                let context = CoreDataStack.context(container)
                let request = SumByZoneRequest.make()
                var groups = 0
                let elapsed = try Stopwatch.milliseconds {
                    let sums = try SumByZoneRequest.sums(request, in: context)
                    groups = sums.count
                    consume(sums)
                }
                try check(groups)
                return elapsed
            },
            Variant(label: "GRDB records", role: .grdbRecords) {
                var groups = 0
                let elapsed = try Stopwatch.milliseconds {
                    let rows = try queue.read { db in
                        try TeamReadRecord.select(TeamRecord.Columns.zone, sum(TeamRecord.Columns.score).forKey("total"))
                            .group(TeamRecord.Columns.zone).asRequest(of: Row.self).fetchAll(db)
                    }
                    var total = 0.0
                    for row in rows { total += row["total"] as Double }
                    groups = rows.count
                    consume(total)
                }
                try check(groups)
                return elapsed
            },
            Variant(label: "GRDB rows", role: .grdbRows) {
                var groups = 0
                let elapsed = try Stopwatch.milliseconds {
                    let rows = try queue.read { db in try Row.fetchAll(db, sql: TeamSQL.sumByZone) }
                    var total = 0.0
                    for row in rows { total += row[1] as Double }
                    groups = rows.count
                    consume(total)
                }
                try check(groups)
                return elapsed
            },
            Variant(label: "C sqlite3", role: .floor) {
                var groups = 0
                let elapsed = Stopwatch.milliseconds {
                    var results: [(String, Double)] = []
                    while sqlite3_step(select) == SQLITE_ROW { results.append((columnString(select, 0), sqlite3_column_double(select, 1))) }
                    sqlite3_reset(select)
                    groups = results.count
                    consume(results)
                }
                try check(groups)
                return elapsed
            },
        ]
    }
}
