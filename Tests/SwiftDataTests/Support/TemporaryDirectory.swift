import Foundation
import SwiftData

/// A fresh directory per test for store files, removed when the value is released.
final class TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("SwiftDataTests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    var storeURL: URL { url.appendingPathComponent("Trips.store") }

    /// A container on this directory's store file.
    func container(_ types: any PersistentModel.Type...) throws -> ModelContainer {
        try ModelContainer(for: Schema(types), configurations: [ModelConfiguration(url: storeURL)])
    }

    /// A container of trips and stops on this directory's store file, with one trip saved by
    /// the context returned with it.
    func containerWithSavedTrip(named name: String, nights: Int) throws -> (container: ModelContainer, context: ModelContext, trip: Trip) {
        let container = try container(Trip.self, Stop.self)
        let context = ModelContext(container)
        let trip = Trip(name: name, nights: nights)
        context.insert(trip)
        try context.save()
        return (container, context, trip)
    }

    /// The rows `sql` reads from the store file, through the sqlite3 tool (not our code).
    func sqlite(_ sql: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", storeURL.path, sql]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
