import Foundation
import Testing
import WorldCupStore

/// WebTable end to end: the real server on a temporary store, two tabs of headless Chromium
/// on its page, and changes made through a page's buttons, through the other tab, and by a
/// second process writing to the store. Every change must reach every page as one batch of the
/// controller's reports, applied without reloading, leaving the DOM equal to the store.
@Suite struct WebTableBrowserTests {
    /// `Examples/WebTable/.artifacts/`, where the run leaves its screenshot.
    static let artifacts = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".artifacts")

    @Test(.timeLimit(.minutes(5)))
    func everyChangeReachesEveryOpenPageAsOneBatchWithoutAReload() async throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("WorldCup.sqlite")
        let server = try await WebTableServerProcess(store: store, log: directory.file("server.log"))
        defer { server.stop() }
        let chromium = try await HeadlessChromium(profile: directory.file("profile"))
        defer { chromium.stop() }

        do {
            try await DevToolsConnection.withConnection(to: chromium.endpoint) { devTools in
                let first = TablePage(page: try await BrowserPage.open(in: devTools))
                let second = TablePage(page: try await BrowserPage.open(in: devTools))
                try await first.page.load(server.url)
                try await second.page.load(server.url)
                let scenario = LiveTableScenario(pages: [first, second], store: store)
                try await play(scenario, first: first, second: second, store: store)

                for (number, page) in [first, second].enumerated() {
                    #expect(try await page.loads() == 1, "page \(number + 1) was loaded more than once")
                    #expect(page.page.navigations(to: server.url) == 1, "page \(number + 1) navigated more than once")
                }
                try await saveScreenshot(of: first.page)
            }
        } catch {
            Issue.record("\(error)\n--- server output ---\n\(server.output)")
        }
    }

    /// The changes, in an order that exercises each kind of report: a move, a section and row
    /// insert, a row delete, an update, a failed command, and the same through another process.
    private func play(_ scenario: LiveTableScenario, first: TablePage, second: TablePage, store: URL) async throws {
        let seeded = try await scenario.expectPagesShowStore(after: "loading")
        #expect(seeded.teamCount == 32)
        #expect(seeded.zones == ["Africa", "Asia", "Europe", "North America", "South America"])
        // A row no step touches: it must stay the very same element through every batch.
        try await first.mark("Japan")

        var table = try await scenario.step("tapping Uruguay on page 1") { try await first.tap("Uruguay") }
        #expect(table.teams(in: "South America")?.first == "Uruguay", "one win moves Uruguay to the top of its zone")

        table = try await scenario.step("adding Wakanda in Oceania on page 1") { try await first.add("Wakanda", zone: "Oceania") }
        #expect(table.zones == ["Africa", "Asia", "Europe", "North America", "Oceania", "South America"])

        table = try await scenario.step("deleting Algeria on page 1") { try await first.delete("Algeria") }
        #expect(table.teams(in: "Africa") == ["Cameroon", "Ghana", "Ivory Coast", "Nigeria"])

        table = try await scenario.step("tapping Wakanda on page 2") { try await second.tap("Wakanda") }
        #expect(table.sections.first { $0.name == "Oceania" }?.rows == [.init(name: "Wakanda", wins: 1)])

        // A command that cannot apply changes nothing and is reported to its page alone.
        try await first.add("Brazil", zone: "Europe")
        try await waitUntil("page 1 to hear that Brazil exists") { try await !first.serverErrors().isEmpty }
        #expect(try await first.serverErrors() == ["there is already a team named Brazil"])
        #expect(try await second.serverErrors() == [])

        table = try await scenario.step("webtable tap Chile, another process") {
            try WebTableProgram.run(["tap", "Chile", "--store", store.path])
        }
        #expect(table.teams(in: "South America")?.prefix(2) == ["Chile", "Uruguay"], "ties sort by name")

        table = try await scenario.step("webtable add Atlantis Atlantic, another process") {
            try WebTableProgram.run(["add", "Atlantis", "Atlantic", "--store", store.path])
        }
        #expect(table.zones == ["Africa", "Asia", "Atlantic", "Europe", "North America", "Oceania", "South America"])

        table = try await scenario.step("webtable delete Wakanda, another process") {
            try WebTableProgram.run(["delete", "Wakanda", "--store", store.path])
        }
        #expect(table.teams(in: "Oceania") == nil, "deleting a zone's last team removes its section")
        #expect(table.teamCount == 32)

        // One transaction with many changes, so that the page's ordering rules matter: two
        // deletes in one zone, a zone emptied, two zones added (one with two teams), a move,
        // and an update whose row shifts up because a row above it went.
        table = try await scenario.step("one save of many changes by another writer") {
            try scenario.saveInStore { context in
                for name in ["Cameroon", "Nigeria", "Atlantis"] { context.delete(try #require(try Team.named(name, in: context))) }
                try #require(try Team.named("Ghana", in: context)).wins += 1
                try #require(try Team.named("Iran", in: context)).wins += 2
                for (name, zone) in [("Narnia", "Antarctica"), ("Rohan", "Middle Earth"), ("Gondor", "Middle Earth")] {
                    let team = Team(context: context)
                    team.teamName = name
                    team.qualifyingZone = zone
                }
            }
        }
        #expect(table.zones == ["Africa", "Antarctica", "Asia", "Europe", "Middle Earth", "North America", "South America"])
        #expect(table.teams(in: "Africa") == ["Ghana", "Ivory Coast"])
        #expect(table.teams(in: "Asia") == ["Iran", "Australia", "Japan", "South Korea"])
        #expect(table.teams(in: "Middle Earth") == ["Gondor", "Rohan"])

        #expect(try await first.isMarked("Japan"), "the page redrew rows that did not change")
    }

    private func saveScreenshot(of page: BrowserPage) async throws {
        try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
        let file = Self.artifacts.appendingPathComponent("webtable.png")
        try await page.screenshot().write(to: file)
        print("WebTable screenshot: \(file.path)")
    }
}
