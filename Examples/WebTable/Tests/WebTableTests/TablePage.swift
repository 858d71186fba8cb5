import Foundation
import WorldCupStore

/// What the browser test does with WebTable's page: read its table out of the DOM, press its
/// buttons, and watch its counters.
///
/// The table is read from the elements alone (section titles, row names and win counts in
/// document order), never from the page's own variables, so it shows what a person would see.
struct TablePage: Sendable {
    let page: BrowserPage

    /// The table the DOM shows.
    func table() async throws -> TableSnapshot {
        try await page.evaluate("""
            ({ sections: [...document.querySelectorAll('#table > section.zone')].map((section) => ({
                name: section.querySelector('h2').textContent,
                rows: [...section.querySelectorAll('ol > li.team')].map((row) => ({
                    name: row.querySelector('.name').textContent,
                    wins: Number(row.querySelector('.wins').textContent) })) })) })
            """).decode(as: TableSnapshot.self)
    }

    /// Batches the page applied since it loaded.
    func appliedBatches() async throws -> Int {
        try await number("window.appliedBatches")
    }

    /// Loads of the page in this tab, counted by the page in `sessionStorage`.
    func loads() async throws -> Int {
        try await number("window.pageLoads")
    }

    /// Batches the page could not apply (an index path outside its table), with the reason.
    func batchErrors() async throws -> [String] {
        try await page.evaluate("window.batchErrors").decode(as: [String].self)
    }

    /// Messages the server sent this page about its own failed commands.
    func serverErrors() async throws -> [String] {
        try await page.evaluate("window.serverErrors").decode(as: [String].self)
    }

    /// Presses the "+1 win" button of `team`'s row.
    func tap(_ team: String) async throws {
        try await press("tap", of: team)
    }

    /// Presses the "Delete" button of `team`'s row.
    func delete(_ team: String) async throws {
        try await press("delete", of: team)
    }

    /// Types a team and a zone into the form and presses "Add team".
    func add(_ team: String, zone: String) async throws {
        let pressed = try await page.evaluate("""
            (() => {
                document.getElementById('new-team').value = \(literal(team));
                document.getElementById('new-zone').value = \(literal(zone));
                document.getElementById('add-team').click();
                return true;
            })()
            """)
        guard pressed == .bool(true) else { throw BrowserPage.ScriptError(description: "could not press Add team") }
    }

    /// Marks the row element of `team`, to tell later whether it is still the same element.
    func mark(_ team: String) async throws {
        _ = try await page.evaluate("document.querySelector(\(literal(rowSelector(team)))).webtableMark = 'kept'")
    }

    /// Whether the row of `team` is still the element `mark` marked: a page that redrew its
    /// table would have replaced it.
    func isMarked(_ team: String) async throws -> Bool {
        try await page.evaluate("document.querySelector(\(literal(rowSelector(team))))?.webtableMark === 'kept'") == .bool(true)
    }

    private func press(_ button: String, of team: String) async throws {
        let selector = rowSelector(team) + " button.\(button)"
        let pressed = try await page.evaluate("""
            (() => { const button = document.querySelector(\(literal(selector))); if (!button) return false; button.click(); return true; })()
            """)
        guard pressed == .bool(true) else { throw BrowserPage.ScriptError(description: "no \(button) button for \(team)") }
    }

    private func rowSelector(_ team: String) -> String {
        // A JSON string is also a CSS string.
        "li.team[data-team=\(literal(team))]"
    }

    private func number(_ expression: String) async throws -> Int {
        let value = try await page.evaluate(expression)
        guard let number = value.int else { throw BrowserPage.ScriptError(description: "\(expression) is \(value), not a number") }
        return number
    }

    /// `text` as a JavaScript string literal (JSON's string syntax is a subset of it).
    private func literal(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}
