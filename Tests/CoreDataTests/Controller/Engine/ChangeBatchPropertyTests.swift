import Foundation
import Testing
@testable import CoreData

/// Random change batches over random data: replaying the reports must reproduce a fresh sort.
@Suite struct ChangeBatchPropertyTests {
    /// Seed from `FRC_SEED` to replay a failure, else a fresh one (printed on failure).
    static let seed: UInt64 = ProcessInfo.processInfo.environment["FRC_SEED"].flatMap(UInt64.init)
        ?? UInt64.random(in: 1...UInt64.max)

    @Test(arguments: EngineLayout.allCases)
    func incrementalAndFullDiffsReplayToFreshSort(layout: EngineLayout) throws {
        var random = SplitMix64(seed: Self.seed)
        var batches = 0
        for walk in 0..<30 {
            var items: [Int: EngineItem] = [:]
            var nextID = 0
            let groups = Int.random(in: 1...6, using: &random)
            for _ in 0..<Int.random(in: 0...25, using: &random) {
                items[nextID] = EngineItem(
                    id: nextID, group: .random(in: 0..<groups, using: &random),
                    score: .random(in: 0..<4, using: &random), visible: .random(in: 0..<5, using: &random) > 0)
                nextID += 1
            }
            var engine = layout.snapshot(items.values)
            for step in 0..<80 {
                let old = engine
                var touched = Set<Int>()
                var edited = Set<Int>()
                for _ in 0..<Int.random(in: 1...5, using: &random) {
                    let existing = items.keys.randomElement(using: &random)
                    switch Int.random(in: 0..<8, using: &random) {
                    case 0, 1:
                        items[nextID] = EngineItem(
                            id: nextID, group: .random(in: 0...groups, using: &random),
                            score: .random(in: 0..<4, using: &random), visible: true)
                        touched.insert(nextID)
                        nextID += 1
                    case 2:
                        guard let id = existing else { continue }
                        items[id] = nil
                        touched.insert(id)
                    case 3:
                        guard let id = existing else { continue }
                        items[id]!.score = .random(in: 0..<4, using: &random)
                        touched.insert(id)
                        edited.insert(id)
                    case 4:
                        guard let id = existing else { continue }
                        items[id]!.group = .random(in: 0...groups, using: &random)
                        touched.insert(id)
                        edited.insert(id)
                    case 5:
                        guard let id = existing else { continue }
                        items[id]!.visible.toggle()
                        touched.insert(id)
                        edited.insert(id)
                    case 6:
                        guard let id = existing else { continue }
                        items[id]!.version += 1
                        touched.insert(id)
                        edited.insert(id)
                    default:
                        // Looked at but unchanged (e.g. a relationship refresh that changed nothing shown).
                        guard let id = existing else { continue }
                        touched.insert(id)
                    }
                }
                let changes = touched.shuffled(using: &random).map {
                    layout.change(for: $0, in: items, contentChanged: edited.contains($0))
                }
                let batch = engine.apply(changes)
                let fresh = layout.snapshot(items.values)
                let context = "seed \(Self.seed) walk \(walk) step \(step) layout \(layout)"
                let oldTable = EngineTable(old)
                let newTable = EngineTable(fresh)
                #expect(EngineTable(engine) == newTable, "engine disagrees with fresh sort; \(context)")
                do {
                    try ReplayChecker.check(batch, old: oldTable, new: newTable, changed: touched, contentChanged: edited)
                } catch {
                    Issue.record("incremental: \(error)\n \(context)\n old \(oldTable)\n batch \(batch.objectChanges.map { "\($0.kind)\($0.id)" }) \(batch.sectionChanges)")
                    return
                }
                let summary = batch.summaryDifference(oldStarts: old.sectionStarts, newStarts: engine.sectionStarts)
                #expect(oldTable.ids.applying(summary) == newTable.ids, "incremental summary; \(context)")

                let full = old.difference(to: fresh, contentChanged: edited)
                do {
                    try ReplayChecker.check(full, old: oldTable, new: newTable, changed: nil, contentChanged: edited)
                } catch {
                    Issue.record("full diff: \(error)\n \(context)")
                    return
                }
                let fullSummary = full.summaryDifference(oldStarts: old.sectionStarts, newStarts: fresh.sectionStarts)
                #expect(oldTable.ids.applying(fullSummary) == newTable.ids, "full summary; \(context)")

                if Int.random(in: 0..<3, using: &random) == 0 {
                    let offset = Int.random(in: 0...3, using: &random)
                    let limit = Int.random(in: 1...8, using: &random)
                    let oldWindow = old.window(offset: offset, limit: limit)
                    let newWindow = fresh.window(offset: offset, limit: limit)
                    let windowed = oldWindow.difference(to: newWindow, contentChanged: edited)
                    do {
                        try ReplayChecker.check(
                            windowed, old: EngineTable(oldWindow), new: EngineTable(newWindow),
                            changed: nil, contentChanged: edited)
                    } catch {
                        Issue.record("window \(offset)+\(limit): \(error)\n \(context)")
                        return
                    }
                }
                batches += 1
            }
        }
        #expect(batches == 30 * 80)
    }
}
