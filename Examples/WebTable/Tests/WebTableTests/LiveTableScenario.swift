import CoreData
import Testing
import WorldCupStore

/// Steps of the browser test: each makes one change somewhere (a page's button, another tab,
/// another process), waits for every open page to apply one batch, and checks each page's
/// table against a fresh fetch from the store.
final class LiveTableScenario {
    let pages: [TablePage]
    let store: URL
    /// Batches every page should have applied by now: one per step.
    private(set) var batches = 0

    init(pages: [TablePage], store: URL) {
        self.pages = pages
        self.store = store
    }

    /// The table as the store has it now, fetched by a container of the test's own, opened
    /// afresh so that nothing cached from an earlier look can answer.
    func tableInStore() throws -> TableSnapshot {
        let container = try WorldCupContainer.open(at: store, author: "webtable-test")
        let context = container.newBackgroundContext()
        return try context.performAndWait { try TableSnapshot(fetchingIn: context) }
    }

    /// Makes changes in one save through a container of the test's own: a writer other than
    /// the server, whose transaction the server can only learn of from the store's history.
    func saveInStore(_ changes: (NSManagedObjectContext) throws -> Void) throws {
        let container = try WorldCupContainer.open(at: store, author: "webtable-test")
        let context = container.newBackgroundContext()
        context.transactionAuthor = "webtable-test"
        try context.performAndWait {
            try changes(context)
            try context.save()
        }
    }

    /// Checks that every page shows the store's table; returns that table.
    @discardableResult
    func expectPagesShowStore(after step: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> TableSnapshot {
        let expected = try tableInStore()
        for (number, page) in pages.enumerated() {
            let shown = try await page.table()
            #expect(shown == expected, "page \(number + 1) after \(step)", sourceLocation: sourceLocation)
        }
        return expected
    }

    /// Runs `change`, waits until every page applied exactly one more batch, and checks the
    /// pages against the store; returns the store's table.
    @discardableResult
    func step(_ name: String, sourceLocation: SourceLocation = #_sourceLocation,
              _ change: () async throws -> Void) async throws -> TableSnapshot {
        try await change()
        batches += 1
        for (number, page) in pages.enumerated() {
            try await waitUntil("page \(number + 1) to apply the batch of '\(name)'") {
                let applied = try await page.appliedBatches()
                let failed = try await page.batchErrors()
                return applied >= batches || !failed.isEmpty
            }
            #expect(try await page.batchErrors() == [], "page \(number + 1) after \(name)", sourceLocation: sourceLocation)
            #expect(try await page.appliedBatches() == batches, "page \(number + 1) after \(name)", sourceLocation: sourceLocation)
        }
        return try await expectPagesShowStore(after: name, sourceLocation: sourceLocation)
    }
}

extension TableSnapshot {
    /// The names of `zone`'s teams in table order, or nil when the zone has no section.
    func teams(in zone: String) -> [String]? {
        sections.first { $0.name == zone }?.rows.map(\.name)
    }

    var zones: [String] { sections.map(\.name) }

    var teamCount: Int { sections.reduce(0) { $0 + $1.rows.count } }
}
