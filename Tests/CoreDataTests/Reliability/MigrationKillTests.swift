import CoreData
import Foundation
import StressFixtures
import Testing

/// A migration killed (SIGKILL) at any moment leaves the store whole: either still the old
/// version, openable with the old model, or the new one, and in both cases the next open
/// with the new model has every row.
@Suite struct MigrationKillTests {
    static let rowCount = 20_000

    /// A store of `rowCount` items written with the old model.
    static func seed(_ url: URL) throws {
        let container = try makeContainer(model: StressModel.make(), storeURL: url)
        let objects = (0..<rowCount).map { serial -> [String: Any] in
            ["batch": 1, "serial": serial, "touches": 0, "payload": StressModel.payload(batch: 1, serial: Int64(serial))]
        }
        _ = try container.viewContext.execute(NSBatchInsertRequest(entityName: "Item", objects: objects))
    }

    @Test func killedAtAnyMomentOfAMigrationTheStoreOpensWithEveryRow() throws {
        let kills = environmentInt("CORE_DATA_MIGRATION_KILLS", default: 50)
        let seed = SplitMix64.seedFromEnvironment()
        var random = SplitMix64(seed: seed)
        let template = TemporaryDirectory()
        let original = template.file("Original.sqlite")
        try Self.seed(original)
        let oldHashes = StressModel.make().entityVersionHashesByName
        let newHashes = StressModel.migrated().entityVersionHashesByName
        var failures: [String] = []
        var (stillOld, migrated) = (0, 0)
        // How long the child takes from start to a migrated store, so kills spread over it.
        var window: TimeInterval = 0
        for kill in -1..<kills where failures.isEmpty {
            let directory = TemporaryDirectory()
            let store = directory.file("Store.sqlite")
            try SQLiteShell.lines(original, "VACUUM INTO '\(store.path)'").forEach { failures.append("vacuum: \($0)") }
            let started = Date()
            let child = try StressProcess(["migrate", "--store", store.path], errorLog: directory.file("stderr.txt"))
            if kill < 0 {
                if let failure = child.waitForSuccess() { failures.append("the unkilled migration failed: \(failure)") }
                window = Date().timeIntervalSince(started) * 1.2
                continue
            }
            usleep(UInt32(Double.random(in: 0...window, using: &random) * 1_000_000))
            child.kill()
            do {
                let hashes = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: store)[NSStoreModelVersionHashesKey] as? [String: Data]
                if hashes == oldHashes { stillOld += 1 } else if hashes == newHashes { migrated += 1 } else {
                    failures.append("kill \(kill): the store records neither version's hashes")
                    continue
                }
                let context = try makeContainer(model: StressModel.migrated(), storeURL: store).viewContext
                let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
                request.predicate = NSPredicate(format: "serial IN %@", [0, 9_999, 19_999])
                request.sortDescriptors = [NSSortDescriptor(key: "serial", ascending: true)]
                let sample = try context.fetch(request).map { $0.value(forKey: "text") as? String }
                let count = try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Item"))
                if count != Self.rowCount || sample != [0, 9_999, 19_999].map({ StressModel.payload(batch: 1, serial: $0) }) {
                    failures.append("kill \(kill): \(count) rows after reopening, sample \(sample)")
                }
            } catch {
                failures.append("kill \(kill): the store does not open after the kill: \(error)")
            }
        }
        print("migration kills: seed \(seed), \(kills) kills over \(Int(window * 1000)) ms; \(stillOld) left the old store, \(migrated) the migrated one")
        #expect(failures.isEmpty, "seed \(seed): \(failures.joined(separator: "\n"))")
        #expect(stillOld + migrated == kills)
    }
}
