import CoreData
import StressFixtures
import Foundation
import Testing

/// Four private contexts saving interleaved edits to the same counters under each merge policy
/// while a view context merges every save. Under `NSErrorMergePolicy` no update is lost; under
/// the others each counter ends as some save left it, the view agrees with the store, and the
/// store passes SQLite's integrity check.
///
/// Under the thread sanitizer:
/// `swift test --sanitize=thread --scratch-path .build-tsan --filter MergePolicyStressTests`
@Suite struct MergePolicyStressTests {
    static let writers = 4, saves = 40, counters = 4

    @Test func errorPolicyLosesNoUpdate() async throws {
        let run = try await stress(NSMergePolicy.error)
        #expect(run.failedSaves == 0, "only merge conflicts may fail: \(run.otherErrors)")
        #expect(run.storedValues == run.successfulIncrements, "each counter holds exactly the increments whose save returned")
        // Every round either committed both its increments or failed with a conflict.
        #expect(run.successfulSaves + run.conflicts == Self.writers * Self.saves)
        #expect(run.successfulIncrements.reduce(0, +) == Int64(2 * run.successfulSaves))
        #expect(run.viewValues == run.storedValues)
        #expect(run.integrity == "ok")
    }

    @Test(arguments: [NSMergePolicyType.mergeByPropertyObjectTrumpMergePolicyType, .mergeByPropertyStoreTrumpMergePolicyType,
                      .overwriteMergePolicyType, .rollbackMergePolicyType])
    func otherPoliciesEndInAStateSomeSaveWrote(policy: NSMergePolicyType) async throws {
        let run = try await stress(NSMergePolicy(merge: policy))
        #expect(run.failedSaves == 0, "\(run.otherErrors)")
        for (index, final) in run.storedStates.enumerated() {
            #expect(run.writtenStates[index].contains(final), "counter \(index) ended as \(final), which no save wrote")
        }
        #expect(run.viewValues == run.storedValues)
        #expect(run.integrity == "ok")
    }

    struct Run {
        var successfulIncrements: [Int64]
        var successfulSaves: Int
        var conflicts: Int
        var failedSaves: Int
        var otherErrors: [String]
        /// Per counter, every (value, writer, round) a successful save left the object holding.
        var writtenStates: [Set<String>]
        var storedStates: [String]
        var storedValues: [Int64]
        var viewValues: [Int64]
        var integrity: String
    }

    private func stress(_ policy: NSMergePolicy) async throws -> Run {
        let directory = TemporaryDirectory()
        let storeURL = directory.file("Stress.sqlite")
        let container = try makeContainer(model: StressModel.make(), storeURL: storeURL)
        let setup = container.newBackgroundContext()
        let ids: [NSManagedObjectID] = try setup.performAndWait {
            let objects = (0..<Self.counters).map { index in
                let counter = NSEntityDescription.insertNewObject(forEntityName: "Counter", into: setup)
                counter.setValue("c\(index)", forKey: "name")
                return counter
            }
            try setup.save()
            return objects.map(\.objectID)
        }
        let view = container.newBackgroundContext()
        view.automaticallyMergesChangesFromParent = true
        try view.performAndWait { for id in ids { _ = try view.existingObject(with: id).int64("value") } }

        let results = try await withThrowingTaskGroup(of: WriterResult.self) { group in
            for writer in 0..<Self.writers {
                group.addTask {
                    let context = container.newBackgroundContext()
                    context.mergePolicy = policy
                    return await context.perform { Self.write(writer, ids: ids, in: context) }
                }
            }
            var all: [WriterResult] = []
            for try await result in group { all.append(result) }
            return all
        }
        let reader = container.newBackgroundContext()
        let stored = try reader.performAndWait { try ids.map { try reader.existingObject(with: $0) } }
        let storedStates = reader.performAndWait { stored.map(Self.state) }
        let storedValues = reader.performAndWait { stored.map { $0.int64("value") } }
        // A last no-op on the view's queue runs after every merge its observer enqueued.
        let viewValues = view.performAndWait { ids.map { view.object(with: $0).int64("value") } }
        var written = [Set<String>](repeating: [Self.state(value: 0, writer: nil, round: 0)], count: Self.counters)
        var increments = [Int64](repeating: 0, count: Self.counters)
        for result in results {
            for index in 0..<Self.counters {
                written[index].formUnion(result.written[index])
                increments[index] += result.increments[index]
            }
        }
        return Run(successfulIncrements: increments, successfulSaves: results.map(\.saves).reduce(0, +), conflicts: results.map(\.conflicts).reduce(0, +),
                   failedSaves: results.map(\.failures.count).reduce(0, +), otherErrors: results.flatMap(\.failures),
                   writtenStates: written, storedStates: storedStates, storedValues: storedValues,
                   viewValues: viewValues, integrity: try StoreInspection.integrityCheck(storeURL.path))
    }

    struct WriterResult: Sendable {
        var increments = [Int64](repeating: 0, count: MergePolicyStressTests.counters)
        var written = [Set<String>](repeating: [], count: MergePolicyStressTests.counters)
        var saves = 0
        var conflicts = 0
        var failures: [String] = []
    }

    /// One writer's rounds: each increments two neighbouring counters and signs them.
    private static func write(_ writer: Int, ids: [NSManagedObjectID], in context: NSManagedObjectContext) -> WriterResult {
        var result = WriterResult()
        for round in 1...saves {
            let touched = [(writer + round) % counters, (writer + round + 1) % counters]
            var edited: [(index: Int, counter: NSManagedObject)] = []
            for index in touched {
                guard let counter = try? context.existingObject(with: ids[index]) else { continue }
                if round % 3 == 0 { context.refresh(counter, mergeChanges: false) }
                counter.setValue(counter.int64("value") + 1, forKey: "value")
                counter.setValue("w\(writer)", forKey: "lastWriter")
                counter.setValue(Int64(round), forKey: "lastBatch")
                edited.append((index, counter))
            }
            do {
                try context.save()
                result.saves += 1
                for (index, counter) in edited {
                    result.increments[index] += 1
                    result.written[index].insert(state(counter))
                }
            } catch let error as NSError where error.code == NSManagedObjectMergeError {
                result.conflicts += 1
                context.rollback()
            } catch {
                result.failures.append("\(error)")
                context.rollback()
            }
        }
        return result
    }

    private static func state(_ counter: NSManagedObject) -> String {
        state(value: counter.int64("value"), writer: counter.string("lastWriter"), round: counter.int64("lastBatch"))
    }

    private static func state(value: Int64, writer: String?, round: Int64) -> String {
        "\(value)/\(writer ?? "-")/\(round)"
    }
}
