import CoreData
import WorldCupStore

/// The table every open page shows: one `NSFetchedResultsController` whose change reports go,
/// one batch per message, to all connected pages.
///
/// The controller lives on a private-queue context. Everything this class keeps (the
/// controller, the batch being collected, the pages, the history token) is touched only on that
/// queue: from `perform` blocks and from the controller's delegate callbacks, which the context
/// delivers there. That confinement is what makes sharing it across NIO's event loops safe,
/// hence `@unchecked Sendable`. Callers on an event loop reach it through the async `perform`,
/// which suspends them instead of blocking the loop while Core Data works.
final class LiveTable: @unchecked Sendable {
    /// A page's end of the table: the messages to send it, a snapshot first and then every
    /// batch after that snapshot, none missed and none twice.
    struct Feed: Sendable {
        let id: Int
        let messages: AsyncStream<String>
    }

    let context: NSManagedObjectContext
    let controller: NSFetchedResultsController<Team>
    /// The reports of the batch being delivered, between `controllerWillChangeContent` and
    /// `controllerDidChangeContent`.
    var pending = ChangeBatch()
    var batchesSent = 0
    private var pages: [Int: AsyncStream<String>.Continuation] = [:]
    private var nextPageID = 0
    /// The newest history transaction already in the context (see `LiveTable+RemoteChanges`).
    var historyToken: NSPersistentHistoryToken?
    var remoteChangeObserver: (any NSObjectProtocol)?

    /// Fetches the table on a new background context of `container`, whose saves are recorded
    /// under `author`.
    init(container: NSPersistentContainer, author: String) throws {
        context = container.newBackgroundContext()
        context.name = "webtable"
        context.transactionAuthor = author
        controller = NSFetchedResultsController(fetchRequest: Team.tableRequest(), managedObjectContext: context,
                                                sectionNameKeyPath: Team.sectionKeyPath, cacheName: nil)
        controller.delegate = self
        try context.performAndWait {
            // The token before the fetch: a commit landing between the two is then merged
            // again later (at worst a redundant update) rather than missed.
            historyToken = container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
            try controller.performFetch()
        }
        startMergingRemoteChanges(of: container.persistentStoreCoordinator)
    }

    deinit {
        remoteChangeObserver.map(NotificationCenter.default.removeObserver)
    }

    /// Adds a page: its feed starts with the table as it is now.
    ///
    /// Taking the snapshot and joining the list of pages happen in one block on the context's
    /// queue, where batches are also delivered, so no batch can fall between the two.
    func connect() async throws -> Feed {
        let (messages, continuation) = AsyncStream.makeStream(of: String.self)
        let id = try await context.perform {
            let id = self.nextPageID
            self.nextPageID += 1
            continuation.yield(PageMessage.snapshot(TableSnapshot(self.controller.sections ?? [])).text)
            self.pages[id] = continuation
            // The page's socket closed and its writer stopped reading: forget the page.
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                self.context.perform { self.pages[id] = nil }
            }
            return id
        }
        return Feed(id: id, messages: messages)
    }

    /// Applies a command from the page `feed` belongs to. The save reaches every page, this one
    /// included, as a batch; a command that fails is reported to this page alone.
    func apply(_ command: TeamCommand, from feed: Feed) async {
        do {
            let summary = try await context.perform { try command.apply(in: self.context) }
            say("page \(feed.id): \(summary)")
        } catch {
            let message = (error as? WorldCupError)?.description ?? "\(error)"
            await send(.failure(message), to: feed)
        }
    }

    private func send(_ message: PageMessage, to feed: Feed) async {
        _ = try? await context.perform { self.pages[feed.id]?.yield(message.text) }
    }

    /// Sends `message` to every connected page. Call on the context's queue.
    func broadcast(_ message: PageMessage) {
        let text = message.text
        for page in pages.values { page.yield(text) }
    }
}
