import CoreData
import StressFixtures
import Foundation
import Testing

/// A process killed with SIGKILL at random moments while saving: afterwards the store opens,
/// passes SQLite's integrity check and holds exactly the saves that returned, each whole.
///
/// `CORE_DATA_KILLS` sets the number of kills (200 by default), `CORE_DATA_SEED` replays a run.
@Suite(.serialized) struct CrashConsistencyTests {
    static let batchSize = 8
    /// A fresh store every this many kills, so kills also land while a store is being created.
    static let killsPerStore = 25

    /// What one kill left behind, checked against the log of saves that returned.
    struct Outcome {
        var lastLogged: Int64 = 0
        var storedBatches: Int64 = 0
        var storeExisted = false
    }

    @Test func killedWhileSavingKeepsExactlyTheReturnedSaves() throws {
        let kills = environmentInt("CORE_DATA_KILLS", default: 200)
        let seed = SplitMix64.seedFromEnvironment()
        var random = SplitMix64(seed: seed)
        var totals = (kills: 0, savedBatches: Int64(0), inFlightKept: 0, beforeStore: 0, exitedEarly: 0)
        var failures: [String] = []
        var storeIndex = 0
        while totals.kills < kills && failures.isEmpty {
            let directory = TemporaryDirectory()
            let store = directory.file("Crash.sqlite")
            let log = directory.file("batches.log")
            for killOnStore in 1...min(Self.killsPerStore, kills - totals.kills) {
                let child = try StressProcess(["save-batches", "--store", store.path, "--batch-size", String(Self.batchSize), "--log", log.path],
                                              errorLog: directory.file("stderr.txt"))
                let loggedBefore = fileSize(log)
                if Int.random(in: 0..<5, using: &random) == 0 {
                    // Anywhere from the start: while opening, recovering or creating the store.
                    usleep(UInt32.random(in: 0...120_000, using: &random))
                } else {
                    // In the save loop: once this run has logged a batch, within a few saves.
                    _ = waitFor(timeout: 20) { fileSize(log) > loggedBefore || !child.process.isRunning }
                    usleep(UInt32.random(in: 0...30_000, using: &random))
                }
                if !child.kill() {
                    totals.exitedEarly += 1
                    failures.append("store \(storeIndex): the child exited before the kill: \(child.standardErrorText)")
                    break
                }
                totals.kills += 1
                do {
                    let outcome = try verify(store: store, log: log, killsSoFar: killOnStore)
                    if !outcome.storeExisted { totals.beforeStore += 1 }
                    if outcome.storedBatches > outcome.lastLogged { totals.inFlightKept += 1 }
                } catch {
                    failures.append("store \(storeIndex), kill \(totals.kills): \(error)")
                    break
                }
            }
            totals.savedBatches += Int64((try? loggedBatches(log).count) ?? 0)
            storeIndex += 1
        }
        print("crash consistency: seed \(seed), \(totals.kills) kills on \(storeIndex) stores, \(totals.savedBatches) batches of \(Self.batchSize) saved and logged, in-flight batch kept whole after \(totals.inFlightKept) kills, \(totals.beforeStore) kills before the store existed")
        #expect(failures.isEmpty, "seed \(seed): \(failures.joined(separator: "\n"))")
        #expect(totals.kills == kills)
    }

    struct Inconsistency: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Opens the store with a new container and checks it against the log.
    func verify(store: URL, log: URL, killsSoFar: Int) throws -> Outcome {
        var outcome = Outcome()
        let logged = try loggedBatches(log)
        // A batch that committed but was killed before its line was written leaves a gap: the
        // next run goes on after it. So the log only increases, with at most one gap per kill.
        outcome.lastLogged = logged.last ?? 0
        guard zip(logged, logged.dropFirst()).allSatisfy({ $0 < $1 }), logged.first ?? 1 >= 1 else {
            throw Inconsistency("the log does not increase: \(logged.suffix(5))")
        }
        guard outcome.lastLogged - Int64(logged.count) < Int64(killsSoFar) else {
            throw Inconsistency("\(outcome.lastLogged - Int64(logged.count)) batches unlogged after \(killsSoFar) kills")
        }
        outcome.storeExisted = FileManager.default.fileExists(atPath: store.path)
        guard outcome.storeExisted else {
            guard logged.isEmpty else { throw Inconsistency("the store is gone but \(logged.count) batches were logged") }
            return outcome
        }
        let container = try makeContainer(model: StressModel.make(), storeURL: store)
        let integrity = try StoreInspection.integrityCheck(store.path)
        guard integrity == "ok" else { throw Inconsistency("integrity_check: \(integrity)") }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let counters = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Counter"))
            let items = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))
            guard !counters.isEmpty else {
                guard items.isEmpty, logged.isEmpty else { throw Inconsistency("no counters, but \(items.count) items and \(logged.count) logged batches") }
                return
            }
            let byName = Dictionary(grouping: counters, by: { $0.string("name") ?? "" })
            guard byName.count == 4, byName.values.allSatisfy({ $0.count == 1 }) else {
                throw Inconsistency("counters: \(counters.map { $0.string("name") ?? "nil" }.sorted())")
            }
            let batches = StressModel.batchCounterNames.map { byName[$0]![0] }
            let stored = batches[0].int64("lastBatch")
            let storedSet = Set(stored > 0 ? Array(1...stored) : [])
            guard logged.allSatisfy(storedSet.contains) else {
                throw Inconsistency("logged batches missing from the store: \(logged.filter { !storedSet.contains($0) }.prefix(5))")
            }
            outcome.storedBatches = stored
            for counter in batches where counter.int64("value") != stored || counter.int64("lastBatch") != stored {
                throw Inconsistency("counter \(counter.string("name") ?? "") has value \(counter.int64("value")), last batch \(counter.int64("lastBatch")); expected \(stored)")
            }
            guard stored == outcome.lastLogged || stored == outcome.lastLogged + 1 else {
                throw Inconsistency("the store holds \(stored) batches, the log \(outcome.lastLogged)")
            }
            // Every batch whole: its serials exactly 0..<batchSize, each payload as written.
            var serialsByBatch: [Int64: [Int64]] = [:]
            var touches: Int64 = 0
            for item in items {
                let batch = item.int64("batch"), serial = item.int64("serial")
                serialsByBatch[batch, default: []].append(serial)
                touches += item.int64("touches")
                guard item.string("payload") == StressModel.payload(batch: batch, serial: serial) else {
                    throw Inconsistency("item \(serial) of batch \(batch) has payload \(item.string("payload") ?? "nil")")
                }
            }
            let expectedSerials = Array(0..<Int64(Self.batchSize))
            guard Set(serialsByBatch.keys) == storedSet else {
                throw Inconsistency("batches in the store: \(serialsByBatch.keys.sorted().suffix(5)), expected 1...\(stored)")
            }
            for (batch, serials) in serialsByBatch where serials.sorted() != expectedSerials {
                throw Inconsistency("batch \(batch) is torn: serials \(serials.sorted())")
            }
            let touchCounter = byName[StressModel.touchCounterName]![0]
            guard touchCounter.int64("value") == touches, touchCounter.int64("lastBatch") == stored else {
                throw Inconsistency("items carry \(touches) touches, the counter \(touchCounter.int64("value")) (last batch \(touchCounter.int64("lastBatch")))")
            }
        }
        return outcome
    }

    /// Batch numbers of the log's complete lines.
    func loggedBatches(_ log: URL) throws -> [Int64] {
        guard let data = FileManager.default.contents(atPath: log.path) else { return [] }
        let text = String(decoding: data, as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: true).compactMap { Int64($0) }
    }
}

/// Kills aimed at the first moments of a new store's life, when its file is being created.
@Suite(.serialized) struct StoreCreationKillTests {
    @Test func killedWhileCreatingTheStoreLeavesNoFileOrAWholeStore() throws {
        let kills = max(environmentInt("CORE_DATA_KILLS", default: 200) / 5, 20)
        let seed = SplitMix64.seedFromEnvironment()
        var random = SplitMix64(seed: seed)
        var failures: [String] = []
        var (noFile, wholeStore) = (0, 0)
        // How long creating a store takes here, from its first file to the finished store, so
        // the kills can be spread over that window.
        var window: TimeInterval = 0.01
        for kill in -1..<kills where failures.isEmpty {
            let directory = TemporaryDirectory()
            let store = directory.file("New.sqlite")
            let child = try StressProcess(["save-batches", "--store", store.path, "--batch-size", "8", "--log", directory.file("log").path],
                                          errorLog: directory.file("stderr.txt"))
            let firstFile = waitFor(timeout: 10) {
                (try? FileManager.default.contentsOfDirectory(atPath: directory.url.path))?.contains { $0.contains("New.sqlite") } == true
            }
            if kill < 0 {
                let finished = waitFor(timeout: 10) { FileManager.default.fileExists(atPath: store.path) }
                window = max(finished.timeIntervalSince(firstFile) * 1.5, 0.002)
                child.kill()
                continue
            }
            usleep(UInt32(Double.random(in: 0...window, using: &random) * 1_000_000))
            child.kill()
            guard FileManager.default.fileExists(atPath: store.path) else { noFile += 1; continue }
            do {
                let container = try makeContainer(model: StressModel.make(), storeURL: store)
                _ = try container.viewContext.count(for: NSFetchRequest<NSManagedObject>(entityName: "Counter"))
                wholeStore += 1
            } catch {
                failures.append("kill \(kill): the store left behind does not open: \(error)")
            }
        }
        print("store creation: seed \(seed), \(kills) kills spread over \(Int(window * 1000)) ms after the first file appeared; \(noFile) left no store file, \(wholeStore) a whole store")
        #expect(failures.isEmpty, "seed \(seed): \(failures.joined(separator: "\n"))")
    }
}

/// Polls `condition` until it holds (or `timeout` passes); returns when it first held.
func waitFor(timeout: TimeInterval, _ condition: () -> Bool) -> Date {
    let start = Date()
    while !condition() && Date().timeIntervalSince(start) < timeout { usleep(100) }
    return Date()
}

func fileSize(_ url: URL) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
}
