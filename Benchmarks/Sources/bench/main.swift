import BenchSQLite
import CoreData
import Foundation

/// The cases in the order they run; `--cases` picks among their ids.
func allCases(_ options: Options) -> [BenchmarkCase] {
    var cases: [BenchmarkCase] = [
        .insert, .fetchObjects, .fetchFaults, .fetchFiltered, .count, .sumByZone,
        .batchUpdate, .batchDelete, .controllerFetch, .controllerCache, .controllerChange, .controllerMerge,
        .predicateEvaluation, .linkToMany, .parallelRead, .memory(options), .migration(options),
        .historyInsert, .remoteChange, .swiftDataInsert, .swiftDataFetch, .swiftDataPredicate,
    ]
    #if POSTGRESQL_CASES
    cases += [.postgresInsert, .postgresFetchObjects, .postgresCount, .postgresBatchUpdate]
    #endif
    return cases
}

func run(_ options: Options) throws {
    let cases = allCases(options)
    if options.list {
        for benchmark in cases { print("\(TableFormat.pad(benchmark.id, 16)) \(benchmark.explanation)") }
        return
    }
    let selected = try options.cases.map { ids in
        try ids.map { id in
            guard let match = cases.first(where: { $0.id == id }) else {
                let omitted = id.hasPrefix("pg-") ? " (the PostgreSQL cases are left out of builds with PORTABLE_CORE_DATA_WITHOUT_POSTGRESQL)" : ""
                throw UsageError("unknown case '\(id)'\(omitted); known: \(cases.map(\.id).joined(separator: ", "))")
            }
            return match
        }
    } ?? cases.filter { !$0.needsPostgreSQL || options.postgresURL != nil }
    if options.postgresURL == nil, let needing = selected.first(where: \.needsPostgreSQL) {
        throw UsageError("\(needing.id) runs on a PostgreSQL server: give its URL with --postgres postgres://user@host:port/database or \(Options.postgresVariable) (scripts/postgres-server start prints one)")
    }

    let command = (["swift run -c release --package-path Benchmarks bench"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
    var settings = [
        "journal_mode": "WAL", "synchronous": "NORMAL", "rows": "\(options.rows)",
        "repetitions": "\(options.repetitions)", "warm-ups": "\(options.warmups)", "memory rows": "\(options.memoryRows)",
    ]
    #if POSTGRESQL_CASES
    let postgres = try options.postgresURL.flatMap { url in try selected.contains(where: \.needsPostgreSQL) ? PostgresServer(url: url) : nil }
    defer { postgres?.close() }
    if let postgres { settings["PostgreSQL"] = postgres.version }
    #endif
    var report = Report(command: command, machine: .current(sqliteVersion: String(cString: sqlite3_libversion())), settings: settings)
    print(TableFormat.header(report))

    let root = FileManager.default.temporaryDirectory.appendingPathComponent("pcd-bench-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { if !options.keepFiles { try? FileManager.default.removeItem(at: root) } }
    let data = TeamData(count: options.rows + CaseEnvironment.mergedCount)

    for benchmark in selected {
        let directory = root.appendingPathComponent(benchmark.id)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        #if POSTGRESQL_CASES
        let environment = CaseEnvironment(options: options, directory: directory, data: data, postgres: postgres)
        #else
        let environment = CaseEnvironment(options: options, directory: directory, data: data)
        #endif
        let started = Stopwatch.nanoseconds()
        var results: [(Variant, Summary)] = []
        var notes: [String] = []
        do {
            var variants = try benchmark.makeVariants(environment)
            for variant in variants {
                FileHandle.standardError.write(Data("  \(benchmark.id): \(variant.label)...\n".utf8))
                for _ in 0..<(variant.warmups ?? options.warmups) { _ = try variant.measure() }
                var samples: [Double] = []
                for _ in 0..<(variant.repetitions ?? options.repetitions) {
                    samples.append(try variant.measure())
                    drainMainQueue()
                }
                results.append((variant, Summary(samples)))
            }
            variants.removeAll()
        } catch {
            notes.append("failed: \(error)")
        }
        notes += benchmark.notes(results)
        let result = Report.CaseResult(benchmark, results: results, seconds: Double(Stopwatch.nanoseconds() - started) / 1e9, notes: notes)
        report.cases.append(result)
        print(TableFormat.caseTable(result))
        if !options.keepFiles { try? FileManager.default.removeItem(at: directory) }
        #if POSTGRESQL_CASES
        if !options.keepFiles { postgres?.dropSchemas() }
        #endif
    }
    print(TableFormat.summary(report))

    if let path = options.jsonPath {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        try encoder.encode(report).write(to: URL(fileURLWithPath: path))
        print("\nJSON written to \(path)")
    }
}

do {
    let options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
    if let child = options.memoryChild {
        try MemoryProbe.runChild(child)
    } else if let child = options.historyWriter {
        try HistoryWriterChild.run(child)
    } else {
        try run(options)
    }
} catch let error as UsageError {
    if let message = error.message { FileHandle.standardError.write(Data("bench: \(message)\n".utf8)) }
    print(Options.usage)
    exit(error.message == nil ? 0 : 2)
} catch {
    FileHandle.standardError.write(Data("bench: \(error)\n".utf8))
    exit(1)
}
