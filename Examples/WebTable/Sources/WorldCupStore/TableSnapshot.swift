import CoreData

/// The table as a page shows it: zones in order, each with its teams in order.
///
/// The server sends it to a page once, when the page connects; the browser test reads the
/// page's DOM into the same shape and compares it with a fresh fetch from the store.
public struct TableSnapshot: Codable, Equatable, Sendable {
    public struct Row: Codable, Equatable, Sendable {
        public var name: String
        public var wins: Int

        public init(name: String, wins: Int) {
            self.name = name
            self.wins = wins
        }

        /// The row showing `team`. Call on its context's queue.
        public init(_ team: Team) {
            self.init(name: team.teamName ?? "", wins: Int(team.wins))
        }
    }

    public struct Section: Codable, Equatable, Sendable {
        public var name: String
        public var rows: [Row]

        public init(name: String, rows: [Row]) {
            self.name = name
            self.rows = rows
        }
    }

    public var sections: [Section]

    public init(sections: [Section]) {
        self.sections = sections
    }

    /// The controller's current sections. Call on its context's queue.
    public init(_ sections: [NSFetchedResultsSectionInfo]) {
        self.sections = sections.map { info in
            Section(name: info.name, rows: (info.objects ?? []).compactMap { ($0 as? Team).map(Row.init) })
        }
    }

    /// The table fetched from the store with `Team.tableRequest()`, grouped by zone without a
    /// controller. Call on `context`'s queue.
    public init(fetchingIn context: NSManagedObjectContext) throws {
        var sections: [Section] = []
        for team in try context.fetch(Team.tableRequest()) {
            let zone = team.qualifyingZone ?? ""
            if sections.last?.name != zone { sections.append(Section(name: zone, rows: [])) }
            sections[sections.count - 1].rows.append(Row(team))
        }
        self.sections = sections
    }
}

/// One line per zone, `Africa: Ghana 1, Ivory Coast 0`: short enough to read in a failed test.
extension TableSnapshot: CustomStringConvertible {
    public var description: String {
        sections.map { section in
            "\(section.name): " + section.rows.map { "\($0.name) \($0.wins)" }.joined(separator: ", ")
        }.joined(separator: "\n")
    }
}
