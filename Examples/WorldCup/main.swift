// World Cup (chapter 5), the main demo: teams grouped by qualifying zone in a fetched results
// controller; the table on screen is kept only from the controller's delegate callbacks.
import CoreData
import ExampleSupport

let usage = """
usage: worldcup [--store PATH | postgres://user@host:port/db?schema=name] [--script FILE]
commands:
  tap <team>            a win for the team (it may move up its zone)
  add <team> <zone>     a new team; quote names with spaces: add "Costa Rica" "North America"
  delete <team>         removes the team (and its zone when it was the last)
  import [count]        a background context adds teams; the merge reaches the table
  list                  prints the table again
  quit
Two worldcups started on one --store file (or PostgreSQL schema) see each other's saves.
"""
let options = ExampleOptions(usage: usage)
let container = ExampleStore.open(name: "WorldCup", options: options, followsOtherProcesses: true)
let context = container.viewContext
context.automaticallyMergesChangesFromParent = true

/// Teams of other tournaments that `import` brings in, a few at a time.
let importable: [(String, String)] = [
    ("Egypt", "Africa"), ("Morocco", "Africa"), ("Peru", "South America"), ("Panama", "North America"),
    ("Denmark", "Europe"), ("Iceland", "Europe"), ("Saudi Arabia", "Asia"), ("Senegal", "Africa"),
    ("Poland", "Europe"), ("Sweden", "Europe"), ("Serbia", "Europe"), ("Tunisia", "Africa"),
]

struct SeedTeam: Decodable {
    let teamName: String
    let qualifyingZone: String
    let imageName: String
    let wins: Int32
}

/// Inserts the 32 teams of the seed file on first launch.
@MainActor func seedIfEmpty() throws {
    guard try context.count(for: NSFetchRequest<Team>(entityName: "Team")) == 0 else { return }
    guard let url = ExampleStore.resource("seed.json", bundle: .module) else {
        throw CommandError("the seed file seed.json is missing from the program's resources")
    }
    for seed in try JSONDecoder().decode([SeedTeam].self, from: Data(contentsOf: url)) {
        let team = Team(context: context)
        team.teamName = seed.teamName
        team.qualifyingZone = seed.qualifyingZone
        team.imageName = seed.imageName
        team.wins = seed.wins
    }
    try context.save()
}

@MainActor func team(named name: String) throws -> Team {
    let request = NSFetchRequest<Team>(entityName: "Team")
    request.predicate = NSPredicate(format: "teamName =[c] %@", name)
    guard let team = try context.fetch(request).first else { throw CommandError("no team named '\(name)'") }
    return team
}

/// Adds teams on a background context, as an import from a server would.
@MainActor func importTeams(count: Int) throws -> Int {
    let existing = Set(try context.fetch(NSFetchRequest<Team>(entityName: "Team")).compactMap(\.teamName))
    let batch = importable.filter { !existing.contains($0.0) }.prefix(count)
    let background = container.newBackgroundContext()
    try background.performAndWait {
        for (name, zone) in batch {
            let team = Team(context: background)
            team.teamName = name
            team.qualifyingZone = zone
            team.imageName = name.lowercased().replacingOccurrences(of: " ", with: "-") + "-flag"
        }
        try background.save()
    }
    return batch.count
}

do {
    try seedIfEmpty()
    let request = NSFetchRequest<Team>(entityName: "Team")
    request.sortDescriptors = [
        NSSortDescriptor(key: "qualifyingZone", ascending: true),
        NSSortDescriptor(key: "wins", ascending: false),
        NSSortDescriptor(key: "teamName", ascending: true),
    ]
    let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                sectionNameKeyPath: "qualifyingZone", cacheName: "worldCup")
    let table = TeamTable()
    controller.delegate = table
    try controller.performFetch()
    table.load(from: controller)
    let loop = try CommandLoop(options: options)

    /// Prints what the delegate heard and the table it now shows.
    @MainActor func show(_ message: String? = nil) {
        loop.printScreen(message, changes: table.takeLog(), body: table.render())
    }

    show()
    // Another `worldcup` on the same file: its saves redraw this table between commands.
    let otherProcesses = OtherProcessSaves(container: container) { count in
        show("merged \(count) save\(count == 1 ? "" : "s") from another process")
    }
    withExtendedLifetime(otherProcesses) { loop.runOnMainQueue(prompt: "worldcup>", settled: {
        // A background import reaches the table after its command, through the merge.
        if table.hasPendingLog { show("merged the background context's save") }
    }) { command in
        let words = command.quotedWords
        switch command.name {
        case "tap":
            guard !command.rest.isEmpty else { throw CommandError("which team? tap <team>") }
            let team = try team(named: words.joined(separator: " "))
            team.wins += 1
            try context.saveOrRollback()
            show("\(team.teamName ?? "?") wins! (\(team.wins))")
        case "add":
            guard words.count == 2, !words[0].isEmpty, !words[1].isEmpty else {
                throw CommandError("add needs a team and a zone: add <team> <zone>")
            }
            if (try? team(named: words[0])) != nil { throw CommandError("there is already a team named '\(words[0])'") }
            let team = Team(context: context)
            team.teamName = words[0]
            team.qualifyingZone = words[1]
            team.imageName = "wenderland-flag"
            try context.saveOrRollback()
            show("added \(words[0]) in \(words[1])")
        case "delete":
            let team = try team(named: words.joined(separator: " "))
            let name = team.teamName ?? "?"
            context.delete(team)
            try context.saveOrRollback()
            show("deleted \(name)")
        case "import":
            let count = words.first.map { Int($0) } ?? 3
            guard let count, count > 0 else { throw CommandError("import takes a positive count") }
            let imported = try importTeams(count: count)
            print(imported == 0 ? "nothing left to import" : "imported \(imported) team\(imported == 1 ? "" : "s") on a background context")
        case "list":
            show()
        default:
            throw CommandError("unknown command '\(command.name)'; try tap, add, delete, import, list, quit")
        }
        return true
    } }
} catch {
    print("error: \(CommandLoop.message(for: error))")
    exit(1)
}
