import SwiftData

/// The on-screen table, drawn from a live `ModelQuery`'s sections. It never fetches: after each
/// save the query has already followed the change, and the table writes down what its
/// difference says moved, so a wrong difference shows up as a wrong log.
@MainActor
final class TeamTable {
    private let query: ModelQuery<Team>
    /// What each row showed after the last change, by offset, to name rows that have since gone.
    private var shown: [String] = []
    private var sectionNames: [String] = []
    private var log: [String] = []

    init(query: ModelQuery<Team>) {
        self.query = query
        remember()
        query.onChange = { [unowned self] difference in
            MainActor.assumeIsolated { self.record(difference) }
        }
    }

    func takeLog() -> [String] {
        defer { log = [] }
        return log
    }

    /// Logs the sections that came or went, then each row removed, moved or inserted, by its
    /// offset in the flat list of teams (zone by zone).
    private func record(_ difference: CollectionDifference<PersistentIdentifier>) {
        let names = query.sections.map(\.name)
        log += sectionNames.filter { !names.contains($0) }.map { "  section removed: \($0)" }
        log += names.filter { !sectionNames.contains($0) }.map { "  section added: \($0)" }
        for case let .remove(offset, _, nil) in difference.removals {
            log.append("  remove \(offset): \(shown[offset])")
        }
        for case let .insert(offset, _, moved) in difference.insertions {
            let row = Self.text(query.models[offset])
            log.append(moved.map { "  move \($0) -> \(offset): \(row)" } ?? "  insert \(offset): \(row)")
        }
        if difference.isEmpty { log.append("  no team moved") }
        remember()
    }

    private func remember() {
        sectionNames = query.sections.map(\.name)
        shown = query.models.map(Self.text)
    }

    private static func text(_ team: Team) -> String {
        "\(team.teamName) (\(team.wins) wins)"
    }

    /// The table as text, one section header and one line per team.
    func render() -> String {
        query.sections.map { section in
            (["\(section.name) (\(section.models.count))"] + section.models.map {
                "  \($0.teamName.padding(toLength: 28, withPad: " ", startingAt: 0)) \($0.wins) win\($0.wins == 1 ? "" : "s")"
            }).joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
