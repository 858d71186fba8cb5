import BenchSQLite
import CoreData
import GRDB

extension BenchmarkCase {
    /// Inserting every team and saving, in one transaction, into a fresh file each repetition.
    nonisolated(unsafe) static let insert = BenchmarkCase(
        id: "insert",
        title: "insert + save",
        explanation: "Creates every team (five attributes) and saves them in one transaction into a new, empty store file.",
        targets: [
            Target(statement: "insert+save within 3x of the C floor", subject: "CoreData", base: "C sqlite3", limit: 3),
            Target(statement: "insert+save faster than GRDB records", subject: "CoreData", base: "GRDB records", limit: 1, strict: true),
        ]
    ) { env in
        let data = env.data
        let rows = env.rows
        let entity = try StoreFiles.templateEntityNumber(in: env.directory)
        return [
            CoreDataVariants.insert(rows: rows, of: data) { try CoreDataStack.container(at: env.storeURL("insert-coredata")) },
            Variant(label: "GRDB records", role: .grdbRecords) {
                let url = env.storeURL("insert-grdb-records")
                try StoreFiles.emptyTable(url, directory: env.directory)
                let queue = try GRDBStack.queue(url)
                return try Stopwatch.milliseconds {
                    try queue.write { db in
                        for index in 0..<rows {
                            try TeamRecord(id: Int64(index + 1), entity: entity, name: data.names[index], zone: data.zone(index),
                                           wins: data.wins[index], score: data.scores[index], date: data.dates[index]).insert(db)
                        }
                    }
                }
            },
            Variant(label: "GRDB rows", role: .grdbRows) {
                let url = env.storeURL("insert-grdb-rows")
                try StoreFiles.emptyTable(url, directory: env.directory)
                let queue = try GRDBStack.queue(url)
                return try Stopwatch.milliseconds {
                    try queue.write { db in
                        let statement = try db.cachedStatement(sql: TeamSQL.insert)
                        for index in 0..<rows {
                            try statement.execute(arguments: [Int64(index + 1), entity, data.names[index], data.zone(index),
                                                              data.wins[index], data.scores[index], data.dates[index]])
                        }
                    }
                }
            },
            Variant(label: "C sqlite3", role: .floor) {
                let url = env.storeURL("insert-floor")
                try StoreFiles.emptyTable(url, directory: env.directory)
                let database = try FloorDatabase(url)
                return try Stopwatch.milliseconds {
                    try database.execute("BEGIN IMMEDIATE")
                    let insert = try database.prepare(TeamSQL.insert)
                    defer { sqlite3_finalize(insert) }
                    for index in 0..<rows {
                        sqlite3_bind_int64(insert, 1, Int64(index + 1))
                        sqlite3_bind_int64(insert, 2, entity)
                        sqlite3_bind_text(insert, 3, data.names[index], -1, sqliteTransient)
                        sqlite3_bind_text(insert, 4, data.zone(index), -1, sqliteTransient)
                        sqlite3_bind_int64(insert, 5, Int64(data.wins[index]))
                        sqlite3_bind_double(insert, 6, data.scores[index])
                        sqlite3_bind_double(insert, 7, data.dates[index])
                        try database.finish(insert)
                    }
                    try database.execute("COMMIT")
                }
            },
        ]
    }
}
