import BenchSQLite
import CoreData
import GRDB

extension BenchmarkCase {
    /// One attribute of every row set in the store, without loading objects.
    nonisolated(unsafe) static let batchUpdate = BenchmarkCase(
        id: "batch-update",
        title: "batch update, one attribute",
        explanation: "Sets `wins` of every team to a constant with `NSBatchUpdateRequest` (status only); elsewhere one `UPDATE ... SET ZWINS = ?, Z_OPT = Z_OPT + 1`, the same work including Core Data's version bump. The reference does it the way a batch update replaces: fetch every team in a fresh context, set `wins` on each, save.",
        targets: [
            Target(statement: "batch update within 1.2x of the C floor", subject: "CoreData", base: "C sqlite3", limit: 1.2),
            Target(statement: "batch update at least 20x faster than fetch-modify-save (time ratio at most 0.05)", subject: "CoreData", base: "CoreData fetch-modify-save", limit: 0.05),
        ]
    ) { env in
        let url = env.storeURL("batch-update")
        let container = try StoreFiles.populatedStore(url, data: env.data, rows: env.rows)
        let context = CoreDataStack.context(container)
        let queue = try GRDBStack.queue(url)
        let floor = try FloorDatabase(url)
        let update = try floor.prepare("UPDATE ZTEAM SET ZWINS = ?, Z_OPT = Z_OPT + 1")
        var round: Int32 = 0
        func nextValue() -> Int32 {
            round += 1
            return 1000 + round
        }
        return [
            Variant(label: "CoreData", role: .coreData) {
                let request = NSBatchUpdateRequest(entityName: "Team")
                request.propertiesToUpdate = ["wins": NSNumber(value: nextValue())]
                request.resultType = .statusOnlyResultType
                return try Stopwatch.milliseconds { consume(try context.execute(request)) }
            },
            Variant(label: "CoreData fetch-modify-save", role: .reference) {
                let value = nextValue()
                let fresh = CoreDataStack.context(container)
                return try Stopwatch.milliseconds {
                    for team in try fresh.fetch(CoreDataStack.teamRequest()) { team.wins = value }
                    try fresh.save()
                }
            },
            Variant(label: "GRDB records", role: .grdbRecords) {
                let value = nextValue()
                return try Stopwatch.milliseconds {
                    try queue.write { db in
                        _ = try TeamRecord.updateAll(db, TeamRecord.Columns.wins.set(to: value), Column("Z_OPT").set(to: Column("Z_OPT") + 1))
                    }
                }
            },
            Variant(label: "GRDB rows", role: .grdbRows) {
                let value = nextValue()
                return try Stopwatch.milliseconds {
                    try queue.write { db in
                        try db.execute(sql: "UPDATE ZTEAM SET ZWINS = ?, Z_OPT = Z_OPT + 1", arguments: [value])
                    }
                }
            },
            Variant(label: "C sqlite3", role: .floor) {
                let value = nextValue()
                return try Stopwatch.milliseconds {
                    try floor.execute("BEGIN IMMEDIATE")
                    sqlite3_bind_int64(update, 1, Int64(value))
                    try floor.finish(update)
                    try floor.execute("COMMIT")
                }
            },
        ]
    }

    /// Every row deleted in the store, on a freshly filled file each repetition.
    nonisolated(unsafe) static let batchDelete = BenchmarkCase(
        id: "batch-delete",
        title: "batch delete, all rows",
        explanation: "Deletes every team with `NSBatchDeleteRequest` on a request for the entity; elsewhere `DELETE FROM ZTEAM` (each repetition on a freshly filled file).",
        targets: []
    ) { env in
        let entity = try StoreFiles.templateEntityNumber(in: env.directory)
        func filledTable(_ name: String) throws -> URL {
            let url = env.storeURL(name)
            try StoreFiles.emptyTable(url, directory: env.directory)
            try StoreFiles.fill(url, data: env.data, range: 0..<env.rows, entity: entity)
            return url
        }
        return [
            Variant(label: "CoreData", role: .coreData) {
                let container = try StoreFiles.populatedStore(env.storeURL("batch-delete-coredata"), data: env.data, rows: env.rows)
                let context = CoreDataStack.context(container)
                let request = NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Team"))
                return try Stopwatch.milliseconds { consume(try context.execute(request)) }
            },
            Variant(label: "GRDB records", role: .grdbRecords) {
                let queue = try GRDBStack.queue(try filledTable("batch-delete-grdb-records"))
                return try Stopwatch.milliseconds { try queue.write { db in _ = try TeamRecord.deleteAll(db) } }
            },
            Variant(label: "GRDB rows", role: .grdbRows) {
                let queue = try GRDBStack.queue(try filledTable("batch-delete-grdb-rows"))
                return try Stopwatch.milliseconds { try queue.write { db in try db.execute(sql: "DELETE FROM ZTEAM") } }
            },
            Variant(label: "C sqlite3", role: .floor) {
                let floor = try FloorDatabase(try filledTable("batch-delete-floor"))
                let delete = try floor.prepare("DELETE FROM ZTEAM")
                defer { sqlite3_finalize(delete) }
                return try Stopwatch.milliseconds {
                    try floor.execute("BEGIN IMMEDIATE")
                    try floor.finish(delete)
                    try floor.execute("COMMIT")
                }
            },
        ]
    }
}
