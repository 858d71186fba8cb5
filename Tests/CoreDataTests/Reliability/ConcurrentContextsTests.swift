import CoreData
import StressFixtures
import Foundation
import Testing

/// Several private-queue contexts of one container incrementing shared counters at once, with
/// a main-thread-free reader merging their saves: the in-process counterpart of
/// TwoProcessTests, written to give the thread sanitizer every path a save and a merge take.
@Suite struct ConcurrentContextsTests {
    @Test func contextsOnOneCoordinatorLoseNoIncrement() async throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(model: StressModel.make(), storeURL: directory.file("Concurrent.sqlite"))
        let setup = container.newBackgroundContext()
        let counterIDs: [NSManagedObjectID] = try setup.performAndWait {
            let counters = (0..<4).map { index in
                let counter = NSEntityDescription.insertNewObject(forEntityName: "Counter", into: setup)
                counter.setValue("c\(index)", forKey: "name")
                return counter
            }
            try setup.save()
            return counters.map(\.objectID)
        }
        let observer = container.newBackgroundContext()
        observer.automaticallyMergesChangesFromParent = true

        let writers = 4, increments = 150
        let successes = try await withThrowingTaskGroup(of: [Int].self) { group in
            for writer in 0..<writers {
                group.addTask {
                    let context = container.newBackgroundContext()
                    return try await context.perform {
                        var committed = [Int](repeating: 0, count: counterIDs.count)
                        var attempts = 0
                        while committed.reduce(0, +) < increments && attempts < increments * 20 {
                            attempts += 1
                            let index = (writer + attempts) % counterIDs.count
                            let counter = try context.existingObject(with: counterIDs[index])
                            if attempts % 2 == 0 { context.refresh(counter, mergeChanges: false) }
                            counter.setValue(counter.int64("value") + 1, forKey: "value")
                            do {
                                try context.save()
                                committed[index] += 1
                            } catch let error as NSError where error.code == NSManagedObjectMergeError {
                                context.rollback()
                            }
                        }
                        return committed
                    }
                }
            }
            var total = [Int](repeating: 0, count: counterIDs.count)
            for try await committed in group { for (index, count) in committed.enumerated() { total[index] += count } }
            return total
        }
        let reader = container.newBackgroundContext()
        let finals = try reader.performAndWait { try counterIDs.map { try reader.existingObject(with: $0).int64("value") } }
        #expect(finals == successes.map(Int64.init), "each counter holds exactly the increments whose save returned")
        #expect(successes.reduce(0, +) == writers * increments)
        // The observer merged every save it was told of; after a refresh it agrees with the store.
        let observed = observer.performAndWait {
            counterIDs.map { id -> Int64 in
                let counter = observer.object(with: id)
                observer.refresh(counter, mergeChanges: false)
                return counter.int64("value")
            }
        }
        #expect(observed == finals)
    }
}
