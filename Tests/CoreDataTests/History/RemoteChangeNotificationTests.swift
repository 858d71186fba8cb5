@testable import CoreData
import Foundation
import Testing

/// `.NSPersistentStoreRemoteChange`: a commit by another coordinator on the same file reaches
/// an observing coordinator through the sidecar file's inotify watch.
extension PersistentHistoryTests {
    /// Notifications posted for `coordinator`.
    final class RemoteChangeInbox: @unchecked Sendable {
        private let received = Locked<[Notification]>([])
        private let arrived = DispatchSemaphore(value: 0)
        private var observer: NSObjectProtocol?

        init(coordinator: NSPersistentStoreCoordinator) {
            observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: coordinator, queue: nil) { [received, arrived] note in
                received.withLock { $0.append(note) }
                arrived.signal()
            }
        }

        deinit { observer.map(NotificationCenter.default.removeObserver) }

        /// The next notification, or nil after a second.
        func next() -> Notification? {
            guard arrived.wait(timeout: .now() + 1) == .success else { return nil }
            return received.withLock { $0.removeFirst() }
        }
    }

    @Test func aCommitByAnotherCoordinatorPostsARemoteChangeWithItsTokenAndStoreURL() throws {
        let observed = try container(remoteChanges: true)
        let writer = try container()
        let inbox = RemoteChangeInbox(coordinator: observed.persistentStoreCoordinator)
        var lastToken = observed.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
        for round in 0..<20 {
            insertPerson("Person \(round)", in: writer.viewContext)
            try writer.viewContext.save()
            let committed = try #require(writer.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil))
            // Commits close together may share a notification, and one may come late for an
            // earlier commit: wait for the one that has seen this commit.
            var received: (note: Notification, token: NSPersistentHistoryToken)
            repeat {
                let note = try #require(inbox.next(), "no notification for save \(round)")
                received = (note, try #require(note.userInfo?[NSPersistentHistoryTokenKey] as? NSPersistentHistoryToken))
            } while received.token < committed
            let token = received.token
            #expect(received.note.userInfo?[NSStoreUUIDKey] as? String == observed.persistentStoreCoordinator.persistentStores[0].identifier)
            #expect(received.note.userInfo?[NSPersistentStoreURLKey] as? URL == observed.persistentStoreCoordinator.persistentStores[0].url)
            #expect(token == committed)
            let transactions = try history(.fetchHistory(after: lastToken), in: observed.viewContext)
            #expect(transactions.count == 1)
            #expect(transactions.last?.token == token)
            lastToken = token
        }
    }

    @Test func aStoreWithoutTheOptionPostsNothingAndRemovingTheStoreStopsTheWatcher() throws {
        let quiet = try container()
        let observed = try container(remoteChanges: true)
        let quietInbox = RemoteChangeInbox(coordinator: quiet.persistentStoreCoordinator)
        let observedInbox = RemoteChangeInbox(coordinator: observed.persistentStoreCoordinator)
        insertPerson("Ann", in: quiet.viewContext)
        try quiet.viewContext.save()
        #expect(observedInbox.next() != nil, "the observing store hears its neighbour's save")
        #expect(quietInbox.next() == nil)
        let coordinator = observed.persistentStoreCoordinator
        try coordinator.remove(coordinator.persistentStores[0])
        insertPerson("Bob", in: quiet.viewContext)
        try quiet.viewContext.save()
        #expect(observedInbox.next() == nil)
    }
}
