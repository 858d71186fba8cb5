// World Cup written with SwiftData: the same table of teams by qualifying zone, with `@Model`
// teams in a `ModelContainer` and the sectioned table kept by a live `ModelQuery`.
import ExampleSupport
import Foundation
import SwiftData

let usage = """
usage: worldcup-swiftdata [--store PATH] [--script FILE]
commands:
  tap <team>            a win for the team (it may move up its zone)
  add <team> <zone>     a new team; quote names with spaces: add "Costa Rica" "North America"
  delete <team>         removes the team (and its zone when it was the last)
  list                  prints the table again
  quit
"""
let options = ExampleOptions(usage: usage)

/// The store at `--store`, or `WorldCup.store` in the user's data directory.
func openContainer() throws -> ModelContainer {
    let configuration = options.storePath.map { ModelConfiguration("WorldCup", url: URL(fileURLWithPath: $0)) } ?? ModelConfiguration("WorldCup")
    return try ModelContainer(for: Team.self, configurations: configuration)
}

/// One team of the seed file shared with the Core Data example.
struct SeedTeam: Decodable {
    let teamName: String
    let qualifyingZone: String
    let imageName: String
    let wins: Int
}

/// Inserts the 32 teams of the seed file on first launch.
@MainActor func seedIfEmpty(_ context: ModelContext) throws {
    guard try context.fetchCount(FetchDescriptor<Team>()) == 0 else { return }
    guard let url = ExampleStore.resource("seed.json", bundle: .module) else {
        throw CommandError("the seed file seed.json is missing from the program's resources")
    }
    for seed in try JSONDecoder().decode([SeedTeam].self, from: Data(contentsOf: url)) {
        context.insert(Team(teamName: seed.teamName, qualifyingZone: seed.qualifyingZone, imageName: seed.imageName, wins: seed.wins))
    }
    try context.save()
}

/// The team called `name`, in any case: `#Predicate` narrows it down in SQL.
@MainActor func team(named name: String, in context: ModelContext) throws -> Team {
    let candidates = try context.fetch(FetchDescriptor<Team>(predicate: #Predicate { $0.teamName.localizedStandardContains(name) }))
    guard let team = candidates.first(where: { $0.teamName.lowercased() == name.lowercased() }) else {
        throw CommandError("no team named '\(name)'")
    }
    return team
}

do {
    let container = try openContainer()
    let context = container.mainContext
    try seedIfEmpty(context)
    let descriptor = FetchDescriptor<Team>(sortBy: [SortDescriptor(\.qualifyingZone), SortDescriptor(\.wins, order: .reverse), SortDescriptor(\.teamName)])
    let table = TeamTable(query: try ModelQuery(descriptor, in: context, sectionedBy: \.qualifyingZone))
    let loop = try CommandLoop(options: options)

    /// Prints what the query's difference said and the table it now shows.
    @MainActor func show(_ message: String? = nil) {
        loop.printScreen(message, changes: table.takeLog(), body: table.render())
    }

    show()
    loop.runOnMainQueue(prompt: "worldcup-swiftdata>") { command in
        let words = command.quotedWords
        switch command.name {
        case "tap":
            guard !command.rest.isEmpty else { throw CommandError("which team? tap <team>") }
            let team = try team(named: words.joined(separator: " "), in: context)
            team.wins += 1
            try context.save()
            show("\(team.teamName) wins! (\(team.wins))")
        case "add":
            guard words.count == 2, !words[0].isEmpty, !words[1].isEmpty else {
                throw CommandError("add needs a team and a zone: add <team> <zone>")
            }
            if (try? team(named: words[0], in: context)) != nil { throw CommandError("there is already a team named '\(words[0])'") }
            context.insert(Team(teamName: words[0], qualifyingZone: words[1], imageName: "wenderland-flag"))
            try context.save()
            show("added \(words[0]) in \(words[1])")
        case "delete":
            let team = try team(named: words.joined(separator: " "), in: context)
            let name = team.teamName
            context.delete(team)
            try context.save()
            show("deleted \(name)")
        case "list":
            show()
        default:
            throw CommandError("unknown command '\(command.name)'; try tap, add, delete, list, quit")
        }
        return true
    }
} catch {
    print("error: \(CommandLoop.message(for: error))")
    exit(1)
}
