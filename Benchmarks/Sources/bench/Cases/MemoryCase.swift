import BenchSQLite
import CoreData
import GRDB

/// Memory held by a large fetch, measured in a child process per sample so that no earlier case
/// has already grown the heap (freed memory would be reused and hide the growth).
enum MemoryProbe: String, CaseIterable {
    case batched = "coredata-batched"
    case batchedResults = "coredata-batched-results"
    case unbatched = "coredata-unbatched"
    case floorKeys = "floor-keys"
    case grdbCursor = "grdb-cursor"

    static let batchSize = 50
    static let touched = 100

    /// Runs in the child: opens the store, notes the resident set, fetches, touches the first
    /// 100 results, and prints the growth in bytes and the time taken.
    static func runChild(_ arguments: [String]) throws {
        guard arguments.count == 2, let probe = MemoryProbe(rawValue: arguments[0]) else {
            throw UsageError("--memory-child MODE PATH")
        }
        let url = URL(fileURLWithPath: arguments[1])
        var growth = 0
        var elapsed = 0.0
        switch probe {
        case .batched, .batchedResults, .unbatched:
            let container = try CoreDataStack.container(at: url)
            let context = CoreDataStack.context(container)
            let warm = CoreDataStack.teamRequest()
            warm.fetchLimit = 1
            consume(try context.fetch(warm).first?.name)
            let before = ResidentSet.bytes()
            elapsed = try Stopwatch.milliseconds {
                let request = CoreDataStack.teamRequest()
                if probe != .unbatched { request.fetchBatchSize = batchSize }
                func touch(_ teams: some RandomAccessCollection<Team>) {
                    var length = 0
                    for team in teams.prefix(touched) { length += team.name?.utf8.count ?? 0 }
                    growth = ResidentSet.bytes() - before
                    consume((teams.count, length))
                }
                if probe == .batchedResults { touch(try context.fetchBatched(request)) } else { touch(try context.fetch(request)) }
            }
        case .floorKeys:
            let floor = try FloorDatabase(url)
            let keys = try floor.prepare("SELECT Z_PK FROM ZTEAM")
            let row = try floor.prepare("\(TeamSQL.selectAll) WHERE Z_PK = ?")
            let before = ResidentSet.bytes()
            elapsed = Stopwatch.milliseconds {
                var ids: [Int64] = []
                while sqlite3_step(keys) == SQLITE_ROW { ids.append(sqlite3_column_int64(keys, 0)) }
                var teams: [TeamValues] = []
                for id in ids.prefix(touched) {
                    sqlite3_bind_int64(row, 1, id)
                    if sqlite3_step(row) == SQLITE_ROW { teams.append(floorTeam(row)) }
                    sqlite3_reset(row)
                }
                growth = ResidentSet.bytes() - before
                consume((ids, teams))
            }
        case .grdbCursor:
            let queue = try GRDBStack.queue(url)
            let before = ResidentSet.bytes()
            elapsed = try Stopwatch.milliseconds {
                let teams = try queue.read { db in
                    var teams: [TeamValues] = []
                    let rows = try Row.fetchCursor(db, sql: TeamSQL.selectAll)
                    while teams.count < touched, let row = try rows.next() { teams.append(grdbTeam(row)) }
                    return teams
                }
                growth = ResidentSet.bytes() - before
                consume(teams)
            }
        }
        print("{\"growthBytes\": \(growth), \"milliseconds\": \(elapsed)}")
    }

    /// Runs this probe in a child process and returns its resident-set growth in MiB.
    func measure(store: URL) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = ["--memory-child", rawValue, store.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        struct Reading: Decodable { let growthBytes: Int; let milliseconds: Double }
        guard process.terminationStatus == 0,
              let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last,
              let reading = try? JSONDecoder().decode(Reading.self, from: Data(line.utf8)) else {
            throw BenchError("memory probe \(rawValue) failed (status \(process.terminationStatus))")
        }
        return Double(reading.growthBytes) / 1_048_576
    }
}

extension BenchmarkCase {
    /// Resident-set growth of a large fetch touching its first 100 objects.
    static func memory(_ options: Options) -> BenchmarkCase {
        let large = options.memoryRows
        let small = max(1, large / 10)
        return BenchmarkCase(
        id: "memory",
        title: "memory, large fetch, first 100 touched",
        explanation: "Resident-set growth (/proc/self/statm, in a fresh child process) of fetching every team with `fetchBatchSize = 50` and reading `name` of the first 100, through `fetchBatched(_:)` and through `fetch(_:)`, against the same fetch without a batch size, at the full memory row count and at a tenth of it; the floor reads all keys then 100 rows (what Apple's batched array holds: one ID a row), GRDB iterates a cursor for 100 rows.",
        targets: [
            Target(statement: "fetchBatched results at \(rowLabel(large)) within 1.5x of the C floor holding every key",
                   subject: "CoreData fetchBatched, \(rowLabel(large))", base: "C keys + 100 rows, \(rowLabel(large))", limit: 1.5),
            Target(statement: "fetch with fetchBatchSize at \(rowLabel(large)) grows the process by at most 100 MiB",
                   subject: "CoreData batched, \(rowLabel(large))", base: nil, limit: 100),
            Target(statement: "unbatched fetch at \(rowLabel(large)) grows the process by at most 300 MiB",
                   subject: "CoreData unbatched, \(rowLabel(large))", base: nil, limit: 300),
            Target(statement: "fetchBatched growth at \(rowLabel(large)) over growth at \(rowLabel(small))",
                   subject: "CoreData fetchBatched, \(rowLabel(large))", base: "CoreData fetchBatched, \(rowLabel(small))", limit: .infinity, informational: true),
            Target(statement: "fetch with fetchBatchSize: growth at \(rowLabel(large)) over growth at \(rowLabel(small))",
                   subject: "CoreData batched, \(rowLabel(large))", base: "CoreData batched, \(rowLabel(small))", limit: .infinity, informational: true),
            Target(statement: "fetch with fetchBatchSize vs. unbatched at \(rowLabel(large))",
                   subject: "CoreData batched, \(rowLabel(large))", base: "CoreData unbatched, \(rowLabel(large))", limit: .infinity, informational: true),
        ],
        notes: { results in
            let growth = Dictionary(results.map { ($0.0.label, $0.1.median) }, uniquingKeysWith: { first, _ in first })
            guard let batched = growth["CoreData batched, \(rowLabel(large))"], let unbatched = growth["CoreData unbatched, \(rowLabel(large))"],
                  unbatched > 0, batched > 0.5 * unbatched else { return [] }
            return ["the batched fetch holds about as much as the unbatched one: this build does not honour fetchBatchSize"]
        }
    ) { env in
        let data = TeamData(count: large)
        let entity = try StoreFiles.templateEntityNumber(in: env.directory)
        var stores: [Int: URL] = [:]
        for count in [large, small] {
            let url = env.storeURL("memory-\(count)")
            try StoreFiles.emptyCoreDataStore(url)
            try StoreFiles.fill(url, data: data, range: 0..<count, entity: entity)
            stores[count] = url
        }
        func variant(_ probe: MemoryProbe, _ label: String, _ role: Role, rows: Int) -> Variant {
            Variant(label: "\(label), \(Self.rowLabel(rows))", role: role, unit: .mebibytes, warmups: 0, repetitions: 1) {
                try probe.measure(store: stores[rows]!)
            }
        }
        return [
            variant(.batchedResults, "CoreData fetchBatched", .coreData, rows: large),
            variant(.batchedResults, "CoreData fetchBatched", .coreData, rows: small),
            variant(.batched, "CoreData batched", .coreData, rows: large),
            variant(.batched, "CoreData batched", .coreData, rows: small),
            variant(.unbatched, "CoreData unbatched", .reference, rows: large),
            variant(.unbatched, "CoreData unbatched", .reference, rows: small),
            variant(.grdbCursor, "GRDB cursor", .grdbRows, rows: large),
            variant(.floorKeys, "C keys + 100 rows", .floor, rows: large),
        ]
    }
    }

    static func rowLabel(_ rows: Int) -> String {
        rows >= 1_000_000 && rows % 1_000_000 == 0 ? "\(rows / 1_000_000)M rows"
            : rows >= 1000 && rows % 1000 == 0 ? "\(rows / 1000)k rows" : "\(rows) rows"
    }
}
