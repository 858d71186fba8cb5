import CoreData
import Foundation

/// The model of `Sources/CoreDataStress/StressModel.swift`, declared again here because a test
/// target cannot import an executable's module; a difference shows as 134100 when the tests
/// open a store the program wrote.
enum StressModel {
    static func make() -> NSManagedObjectModel {
        NSManagedObjectModel(entities: [
            NSEntityDescription(name: "Item", properties: [
                NSAttributeDescription(name: "batch", type: .integer64AttributeType, optional: false, defaultValue: 0),
                NSAttributeDescription(name: "serial", type: .integer64AttributeType, optional: false, defaultValue: 0),
                NSAttributeDescription(name: "touches", type: .integer64AttributeType, optional: false, defaultValue: 0),
                NSAttributeDescription(name: "payload", type: .stringAttributeType),
            ]),
            NSEntityDescription(name: "Counter", properties: [
                NSAttributeDescription(name: "name", type: .stringAttributeType),
                NSAttributeDescription(name: "value", type: .integer64AttributeType, optional: false, defaultValue: 0),
                NSAttributeDescription(name: "lastBatch", type: .integer64AttributeType, optional: false, defaultValue: 0),
                NSAttributeDescription(name: "lastWriter", type: .stringAttributeType),
            ]),
        ])
    }

    static let batchCounterNames = ["batches-a", "batches-b", "batches-c"]
    static let touchCounterName = "touches"

    static func payload(batch: Int64, serial: Int64) -> String {
        "batch \(batch) item \(serial) " + String(repeating: "·", count: Int(serial % 7) * 10)
    }

    static func bigPayload(serial: Int, bytes: Int) -> String {
        let unit = "item \(serial) of a save that does not fit; "
        return String(String(repeating: unit, count: bytes / unit.utf8.count + 1).prefix(bytes))
    }
}

extension NSManagedObject {
    func int64(_ key: String) -> Int64 {
        (value(forKey: key) as? NSNumber)?.int64Value ?? (value(forKey: key) as? Int64) ?? 0
    }

    func string(_ key: String) -> String? { value(forKey: key) as? String }
}

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
