import CoreData
import StressFixtures

// A command-line program the reliability tests run as a child process, so they can kill it
// at any moment, run two of them on one store, or limit its file sizes. See RELIABILITY.md.
//
//   CoreDataStress save-batches --store PATH --batch-size N --log PATH [--limit BATCHES]
//   CoreDataStress interleave --store PATH|URL --seconds S --writer N --report PATH [--peer-done PATH,PATH…]
//                             [--merge-policy error|overwrite]
//   CoreDataStress disk-full --store PATH --report PATH [--objects N] [--payload-bytes B]
//   CoreDataStress touch-off-queue --store PATH       (for CORE_DATA_CONCURRENCY_DEBUG)
//   CoreDataStress fetch-with-bound-values --store PATH   (for CORE_DATA_SQL_DEBUG)
//   CoreDataStress edit-model-in-use --store PATH     (stops: the model is frozen)
//   CoreDataStress migrate --store PATH               (opens the store with the next model version)
//   CoreDataStress history-writer --store PATH --saves N --log PATH [--interval-ms M]
//                             (saves with persistent history, for the two-process history test)
//   CoreDataStress live-replica --store PATH|URL --replica N --replicas COUNT --saves N --signal-folder PATH
//                             --commit-log PATH --report PATH [--interval-ms M]
//                             (saves and watches the others' saves, for the PostgreSQL multi-process test)
//   CoreDataStress fetch-save-memory --store PATH --objects N --batch-size B --report PATH [--retain 1]
//                             (fetches and saves in batches, reporting registered objects and resident memory)
//   CoreDataStress first-open --store PATH|URL --writer N --start-time SECONDS_SINCE_1970
//                             (opens a store that may not exist yet at a shared moment and saves one item)

struct StressFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `--name value` pairs after the command.
struct Arguments {
    private var values: [String: String] = [:]

    init(_ arguments: ArraySlice<String>) throws {
        var remaining = arguments
        while let name = remaining.popFirst() {
            guard name.hasPrefix("--"), let value = remaining.popFirst() else { throw StressFailure("expected --name value, got \(name)") }
            values[String(name.dropFirst(2))] = value
        }
    }

    func string(_ name: String) throws -> String {
        guard let value = values[name] else { throw StressFailure("missing --\(name)") }
        return value
    }

    func int(_ name: String, default defaultValue: Int? = nil) throws -> Int {
        guard let text = values[name] else {
            if let defaultValue { return defaultValue }
            throw StressFailure("missing --\(name)")
        }
        guard let value = Int(text) else { throw StressFailure("--\(name) is not an integer: \(text)") }
        return value
    }

    func double(_ name: String) throws -> Double {
        guard let value = Double(try string(name)) else { throw StressFailure("--\(name) is not a number") }
        return value
    }
}

do {
    let command = CommandLine.arguments.dropFirst().first ?? ""
    let arguments = try Arguments(CommandLine.arguments.dropFirst(2))
    switch command {
    case "save-batches":
        try SaveBatches(storePath: arguments.string("store"), batchSize: arguments.int("batch-size"),
                        logPath: arguments.string("log"), limit: arguments.int("limit", default: 0)).run()
    case "interleave":
        try Interleave(storePath: arguments.string("store"), seconds: arguments.double("seconds"),
                       writer: arguments.int("writer"), reportPath: arguments.string("report"),
                       peerDonePaths: ((try? arguments.string("peer-done")) ?? "").split(separator: ",").map(String.init),
                       mergePolicy: (try? arguments.string("merge-policy")) ?? "error").run()
    case "disk-full":
        try DiskFull(storePath: arguments.string("store"), reportPath: arguments.string("report"),
                     objectCount: arguments.int("objects", default: 40),
                     payloadBytes: arguments.int("payload-bytes", default: 40_000)).run()
    case "touch-off-queue":
        try DebugSwitches.touchOffQueue(storePath: arguments.string("store"))
    case "fetch-with-bound-values":
        try DebugSwitches.fetchWithBoundValues(storePath: arguments.string("store"))
    case "edit-model-in-use":
        try DebugSwitches.editModelInUse(storePath: arguments.string("store"))
    case "migrate":
        _ = try StressModel.container(path: arguments.string("store"), model: StressModel.migrated())
    case "history-writer":
        try HistoryWriter(storePath: arguments.string("store"), saves: arguments.int("saves"),
                          intervalMilliseconds: arguments.int("interval-ms", default: 10), logPath: arguments.string("log")).run()
    case "live-replica":
        try LiveReplica(store: arguments.string("store"), replica: arguments.int("replica"), replicas: arguments.int("replicas"),
                        saves: arguments.int("saves"), intervalMilliseconds: arguments.int("interval-ms", default: 10),
                        signalFolder: arguments.string("signal-folder"), commitLogPath: arguments.string("commit-log"),
                        reportPath: arguments.string("report")).run()
    case "fetch-save-memory":
        try FetchSaveMemory(storePath: arguments.string("store"), objectCount: arguments.int("objects"),
                            batchSize: arguments.int("batch-size"), reportPath: arguments.string("report"),
                            retainsRegisteredObjects: arguments.int("retain", default: 0) != 0).run()
    case "first-open":
        try FirstOpen(store: arguments.string("store"), writer: arguments.int("writer"),
                      startTime: arguments.double("start-time")).run()
    default:
        throw StressFailure("unknown command '\(command)'; use save-batches, interleave, disk-full, touch-off-queue, fetch-with-bound-values, edit-model-in-use, migrate, history-writer, live-replica, fetch-save-memory or first-open")
    }
} catch {
    FileHandle.standardError.write(Data("CoreDataStress: \(error)\n".utf8))
    exit(1)
}
