import CoreData
import Foundation

/// Reads a store file the way an outsider would: SQLite's own integrity check through the
/// sqlite3 shell (installed by scripts/bootstrap).
enum StoreInspection {
    static func sqlite3(_ path: String, _ sql: String) throws -> String {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path, sql]
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func integrityCheck(_ path: String) throws -> String {
        try sqlite3(path, "PRAGMA integrity_check;")
    }
}

/// A failing reliability run prints its seed, and `CORE_DATA_SEED=<seed>` replays it.
extension SplitMix64 {
    /// The seed from `CORE_DATA_SEED`, or a fresh one.
    static func seedFromEnvironment() -> UInt64 {
        ProcessInfo.processInfo.environment["CORE_DATA_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
    }
}

/// An integer from the environment, for long runs (`CORE_DATA_KILLS=5000`).
func environmentInt(_ name: String, default defaultValue: Int) -> Int {
    ProcessInfo.processInfo.environment[name].flatMap(Int.init) ?? defaultValue
}
