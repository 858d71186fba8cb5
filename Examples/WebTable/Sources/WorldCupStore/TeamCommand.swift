import CoreData

/// One change a person asks for: a win for a team, a new team, or a team removed.
///
/// Pages send it as JSON over their WebSocket (`{"action": "tap", "team": "Brazil"}`), and
/// `webtable tap Brazil` builds it from its arguments; both apply it the same way.
public struct TeamCommand: Codable, Equatable, Sendable {
    public enum Action: String, Codable, Sendable {
        case tap, add, delete
    }

    public var action: Action
    public var team: String
    /// The qualifying zone of a team to add; unused by the other actions.
    public var zone: String?

    public init(action: Action, team: String, zone: String? = nil) {
        self.action = action
        self.team = team
        self.zone = zone
    }
}

extension TeamCommand {
    /// Makes the change in `context` and saves it, in one transaction; returns what happened,
    /// for a log line. Call on `context`'s queue.
    ///
    /// A command that cannot apply (an unknown team, a duplicate name) throws a `WorldCupError`
    /// and leaves the context as it was, so the next command starts clean.
    @discardableResult
    public func apply(in context: NSManagedObjectContext) throws -> String {
        let name = team.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw WorldCupError("a command needs a team name") }
        let summary: String
        switch action {
        case .tap:
            let team = try existing(name, in: context)
            team.wins += 1
            summary = "\(team.teamName ?? name) wins (\(team.wins))"
        case .add:
            let zone = (zone ?? "").trimmingCharacters(in: .whitespaces)
            guard !zone.isEmpty else { throw WorldCupError("a new team needs a qualifying zone") }
            if try Team.named(name, in: context) != nil { throw WorldCupError("there is already a team named \(name)") }
            let team = Team(context: context)
            team.teamName = name
            team.qualifyingZone = zone
            team.imageName = "wenderland-flag"
            summary = "added \(name) in \(zone)"
        case .delete:
            let team = try existing(name, in: context)
            summary = "deleted \(team.teamName ?? name)"
            context.delete(team)
        }
        do {
            try context.save()
        } catch {
            context.rollback()
            throw error
        }
        return summary
    }

    private func existing(_ name: String, in context: NSManagedObjectContext) throws -> Team {
        guard let team = try Team.named(name, in: context) else { throw WorldCupError("no team named \(name)") }
        return team
    }
}
