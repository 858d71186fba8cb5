import BenchSQLite
import CoreData
import GRDB

/// Reads every column of the current row into a `TeamValues`.
@inline(__always)
func floorTeam(_ statement: OpaquePointer) -> TeamValues {
    TeamValues(id: sqlite3_column_int64(statement, 0), name: columnString(statement, 1), zone: columnString(statement, 2),
               wins: Int32(truncatingIfNeeded: sqlite3_column_int64(statement, 3)), score: sqlite3_column_double(statement, 4),
               date: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, 5)))
}

@inline(__always)
func grdbTeam(_ row: Row) -> TeamValues {
    TeamValues(id: row[0], name: row[1], zone: row[2], wins: row[3], score: row[4],
               date: Date(timeIntervalSinceReferenceDate: row[5]))
}

/// A sum over every attribute, so that reading them cannot be optimised away.
@inline(__always)
func checksum(_ team: Team) -> Double {
    Double(team.name!.utf8.count + team.zone!.utf8.count) + Double(team.wins) + team.score + team.date!.timeIntervalSinceReferenceDate
}

@inline(__always)
func checksum(name: String, zone: String, wins: Int32, score: Double, date: Double) -> Double {
    Double(name.utf8.count + zone.utf8.count) + Double(wins) + score + date
}

extension BenchmarkCase {
    /// Every row as a fully materialised object, every attribute read.
    nonisolated(unsafe) static let fetchObjects = BenchmarkCase(
        id: "fetch-objects",
        title: "fetch all, materialised",
        explanation: "Fetches every team as a fully materialised object (`returnsObjectsAsFaults = false`; GRDB and the floor build Swift values) and reads all five attributes of each.",
        targets: [
            Target(statement: "materialised fetch within 3x of the C floor", subject: "CoreData", base: "C sqlite3", limit: 3),
            Target(statement: "materialised fetch within 1.2x of GRDB records", subject: "CoreData", base: "GRDB records", limit: 1.2),
        ]
    ) { env in
        let url = env.storeURL("fetch-objects")
        let container = try StoreFiles.populatedStore(url, data: env.data, rows: env.rows)
        let queue = try GRDBStack.queue(url)
        let floor = try FloorDatabase(url)
        let select = try floor.prepare(TeamSQL.selectAll)
        return [
            CoreDataVariants.fetchObjects(container),
            Variant(label: "GRDB records", role: .grdbRecords) {
                try Stopwatch.milliseconds {
                    let teams = try queue.read { db in try TeamReadRecord.fetchAll(db) }
                    var sum = 0.0
                    for team in teams { sum += checksum(name: team.name, zone: team.zone, wins: team.wins, score: team.score, date: team.date) }
                    consume(sum)
                }
            },
            Variant(label: "GRDB rows", role: .grdbRows) {
                try Stopwatch.milliseconds {
                    let teams = try queue.read { db in
                        var teams: [TeamValues] = []
                        let rows = try Row.fetchCursor(db, sql: TeamSQL.selectAll)
                        while let row = try rows.next() { teams.append(grdbTeam(row)) }
                        return teams
                    }
                    var sum = 0.0
                    for team in teams { sum += checksum(name: team.name, zone: team.zone, wins: team.wins, score: team.score, date: team.date.timeIntervalSinceReferenceDate) }
                    consume(sum)
                }
            },
            Variant(label: "C sqlite3", role: .floor) {
                Stopwatch.milliseconds {
                    var teams: [TeamValues] = []
                    while sqlite3_step(select) == SQLITE_ROW { teams.append(floorTeam(select)) }
                    sqlite3_reset(select)
                    var sum = 0.0
                    for team in teams { sum += checksum(name: team.name, zone: team.zone, wins: team.wins, score: team.score, date: team.date.timeIntervalSinceReferenceDate) }
                    consume(sum)
                }
            },
        ]
    }

    /// Faults, then one attribute touched on each; against the same attribute read from a
    /// materialised fetch, which does the same reading without faulting.
    nonisolated(unsafe) static let fetchFaults = BenchmarkCase(
        id: "fetch-faults",
        title: "fetch faults, touch one attribute",
        explanation: "Fetches every team as a fault (the default) and then reads `wins` of each, firing every fault, against a materialised fetch (`returnsObjectsAsFaults = false`) reading the same attribute; the floor and GRDB fetch the primary keys alone.",
        targets: [Target(statement: "faults + touch within 1.1x of the materialised fetch", subject: "CoreData", base: "CoreData materialised", limit: 1.1)]
    ) { env in
        let url = env.storeURL("fetch-faults")
        let container = try StoreFiles.populatedStore(url, data: env.data, rows: env.rows)
        let queue = try GRDBStack.queue(url)
        let floor = try FloorDatabase(url)
        let selectKeys = try floor.prepare("SELECT Z_PK FROM ZTEAM")
        return [
            Variant(label: "CoreData", role: .coreData) {
                let context = CoreDataStack.context(container)
                return try Stopwatch.milliseconds {
                    let teams = try context.fetch(CoreDataStack.teamRequest())
                    var sum: Int64 = 0
                    for team in teams { sum &+= Int64(team.wins) }
                    consume(sum)
                }
            },
            Variant(label: "CoreData materialised", role: .reference) {
                let context = CoreDataStack.context(container)
                let request = CoreDataStack.teamRequest()
                request.returnsObjectsAsFaults = false
                return try Stopwatch.milliseconds {
                    var sum: Int64 = 0
                    for team in try context.fetch(request) { sum &+= Int64(team.wins) }
                    consume(sum)
                }
            },
            Variant(label: "CoreData faults, untouched", role: .reference) {
                let context = CoreDataStack.context(container)
                return try Stopwatch.milliseconds { consume(try context.fetch(CoreDataStack.teamRequest())) }
            },
            Variant(label: "CoreData object IDs", role: .reference) {
                let context = CoreDataStack.context(container)
                let request = NSFetchRequest<NSManagedObjectID>(entityName: "Team")
                request.resultType = .managedObjectIDResultType
                return try Stopwatch.milliseconds { consume(try context.fetch(request)) }
            },
            Variant(label: "GRDB records", role: .grdbRecords) {
                try Stopwatch.milliseconds {
                    consume(try queue.read { db in try Int64.fetchAll(db, TeamReadRecord.select(Column("Z_PK"), as: Int64.self)) })
                }
            },
            Variant(label: "GRDB rows", role: .grdbRows) {
                try Stopwatch.milliseconds {
                    consume(try queue.read { db in try Int64.fetchAll(db, sql: "SELECT Z_PK FROM ZTEAM") })
                }
            },
            Variant(label: "C sqlite3", role: .floor) {
                Stopwatch.milliseconds {
                    var keys: [Int64] = []
                    while sqlite3_step(selectKeys) == SQLITE_ROW { keys.append(sqlite3_column_int64(selectKeys, 0)) }
                    sqlite3_reset(selectKeys)
                    consume(keys)
                }
            },
        ]
    }

    /// A predicate and two sort keys, run by SQLite.
    nonisolated(unsafe) static let fetchFiltered = BenchmarkCase(
        id: "fetch-filtered",
        title: "fetch, predicate + 2 sort keys",
        explanation: "Fetches the teams with `wins >= 500 AND zone != 'Zone 03'` (about half) sorted by zone then score descending, materialised, and reads one attribute of each.",
        targets: [Target(statement: "predicate + 2 sorts within 1.2x of GRDB records", subject: "CoreData", base: "GRDB records", limit: 1.2)]
    ) { env in
        let url = env.storeURL("fetch-filtered")
        let container = try StoreFiles.populatedStore(url, data: env.data, rows: env.rows)
        let queue = try GRDBStack.queue(url)
        let floor = try FloorDatabase(url)
        let select = try floor.prepare(TeamSQL.filteredSorted)
        return [
            CoreDataVariants.fetchFiltered(container),
            Variant(label: "GRDB records", role: .grdbRecords) {
                try Stopwatch.milliseconds {
                    let teams = try queue.read { db in
                        try TeamReadRecord
                            .filter(TeamRecord.Columns.wins >= TeamSQL.winsThreshold && TeamRecord.Columns.zone != TeamSQL.excludedZone)
                            .order(TeamRecord.Columns.zone, TeamRecord.Columns.score.desc)
                            .fetchAll(db)
                    }
                    var sum = 0.0
                    for team in teams { sum += team.score }
                    consume(sum)
                }
            },
            Variant(label: "GRDB rows", role: .grdbRows) {
                try Stopwatch.milliseconds {
                    let teams = try queue.read { db in
                        var teams: [TeamValues] = []
                        let rows = try Row.fetchCursor(db, sql: TeamSQL.filteredSorted, arguments: [TeamSQL.winsThreshold, TeamSQL.excludedZone])
                        while let row = try rows.next() { teams.append(grdbTeam(row)) }
                        return teams
                    }
                    var sum = 0.0
                    for team in teams { sum += team.score }
                    consume(sum)
                }
            },
            Variant(label: "C sqlite3", role: .floor) {
                Stopwatch.milliseconds {
                    sqlite3_bind_int64(select, 1, Int64(TeamSQL.winsThreshold))
                    sqlite3_bind_text(select, 2, TeamSQL.excludedZone, -1, sqliteTransient)
                    var teams: [TeamValues] = []
                    while sqlite3_step(select) == SQLITE_ROW { teams.append(floorTeam(select)) }
                    sqlite3_reset(select)
                    var sum = 0.0
                    for team in teams { sum += team.score }
                    consume(sum)
                }
            },
        ]
    }
}
