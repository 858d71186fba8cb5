import Foundation
import SwiftData

/// The Team entity written as a SwiftData model, with the attributes and the table (`ZTEAM`,
/// `ZNAME`...) of `CoreDataStack`'s, so the C API fills its store files the same way.
enum SwiftDataStack {
    @Model
    final class Team {
        var name: String
        var zone: String
        var wins: Int32
        var score: Double
        var date: Date

        init(_ data: TeamData, _ index: Int) {
            name = data.names[index]
            zone = data.zone(index)
            wins = data.wins[index]
            score = data.scores[index]
            date = data.date(index)
        }
    }

    /// A container whose only store is the file at `url` (created if missing); SwiftData's
    /// stores record persistent history.
    static func container(at url: URL) throws -> ModelContainer {
        try ModelContainer(for: Team.self, configurations: ModelConfiguration(url: url))
    }

    /// A container on a store holding the first `rows` teams, filled through the C API.
    static func populatedContainer(_ url: URL, data: TeamData, rows: Int) throws -> ModelContainer {
        let container = try container(at: url)
        try StoreFiles.fill(url, data: data, range: 0..<rows, entity: try StoreFiles.entityNumber(try FloorDatabase(url)))
        return container
    }

    /// `TeamSQL.predicateFormat` as a `#Predicate`.
    static var filteredPredicate: Predicate<Team> {
        let threshold = TeamSQL.winsThreshold, excluded = TeamSQL.excludedZone
        return #Predicate { $0.wins >= threshold && $0.zone != excluded }
    }
}
