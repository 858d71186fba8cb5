import CoreData
import Foundation
import Testing

/// The asynchronous `perform` of contexts and coordinators, and the container's
/// `performBackgroundTask`, are `rethrows` as Apple's are: awaiting a block that cannot throw
/// needs no `try` (this file compiles only if so), and a throwing block's error still arrives.
@Suite struct PerformRethrowsTests {
    let directory = TemporaryDirectory()

    struct Refusal: Error {}

    @Test func aNonThrowingBlockIsAwaitedWithoutTry() async throws {
        let container = try LedgerModel.container(in: directory)
        let context = container.newBackgroundContext()
        let enqueued = await context.perform(schedule: .enqueued) { context.concurrencyType }
        let immediate = await context.perform { context.registeredObjects.count }
        let stores = await container.persistentStoreCoordinator.perform { container.persistentStoreCoordinator.persistentStores.count }
        let named = await container.performBackgroundTask { $0.concurrencyType }
        #expect(enqueued == .privateQueueConcurrencyType && immediate == 0 && stores == 1 && named == .privateQueueConcurrencyType)
    }

    @Test func aThrowingBlocksErrorIsRethrown() async throws {
        let container = try LedgerModel.container(in: directory)
        let context = container.newBackgroundContext()
        await #expect(throws: Refusal.self) { try await context.perform(schedule: .enqueued) { () throws -> Int in throw Refusal() } }
        await #expect(throws: Refusal.self) { try await container.persistentStoreCoordinator.perform { () throws -> Int in throw Refusal() } }
        await #expect(throws: Refusal.self) { try await container.performBackgroundTask { _ throws -> Int in throw Refusal() } }
    }
}
