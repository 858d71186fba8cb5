import CoreData
import Foundation
import Testing

/// A main-queue parent and a private-queue child that merges the parent's saves: the main
/// thread waiting for the child right after the parent saved must not deadlock (the child's
/// merge used to wait for the parent's queue, that is for the main thread).
@Suite struct MainQueueParentMergeTests {
    let directory = TemporaryDirectory()

    @Test func theMainThreadWaitsForAMergingChildRightAfterTheParentSaved() throws {
        let coordinator = UncheckedBox(try LedgerModel.container(in: directory).persistentStoreCoordinator)
        let title = try runGuardedOnMainQueue(seconds: 30) { () throws -> String? in
            let parent = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
            parent.persistentStoreCoordinator = coordinator.value
            let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            child.parent = parent
            child.automaticallyMergesChangesFromParent = true

            let entry = LedgerEntry(context: parent)
            entry.title = "First"
            try parent.save()
            let inChild = child.performAndWait {
                let object = child.object(with: entry.objectID) as? LedgerEntry
                _ = object?.title
                return object
            }
            entry.title = "Second"
            LedgerEntry(context: parent).title = "Another"
            try parent.save()
            return child.performAndWait { inChild?.title }
        }
        #expect(title == "Second")
    }
}

/// Hands a value the test confines itself to a guarded block.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
