// BowTies (chapter 2): typed subclasses, seed data, wearing and rating with validation.
import CoreData
import ExampleSupport

let usage = """
usage: bowties [--store PATH] [--script FILE]
commands: keys, show <search key>, wear, rate <0-5>, favorite, quit
"""
let options = ExampleOptions(usage: usage)
ColorAttributeTransformer.register()
let container = ExampleStore.open(name: "BowTies", options: options)
let context = container.viewContext

/// Inserts the sample bow ties on first launch (when none has a search key yet).
@MainActor func insertSampleData() throws {
    let request: NSFetchRequest<BowTie> = BowTie.fetchRequest()
    request.predicate = NSPredicate(format: "searchKey != nil")
    guard try context.count(for: request) == 0 else { return }
    guard let url = ExampleStore.resource("SampleData.plist", bundle: .module),
          let data = try? Data(contentsOf: url),
          let entries = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [[String: Any]] else {
        throw CommandError("the sample data SampleData.plist is missing from the program's resources")
    }
    for entry in entries {
        let bowTie = BowTie(context: context)
        bowTie.id = (entry["id"] as? String).flatMap(UUID.init(uuidString:))
        bowTie.name = entry["name"] as? String
        bowTie.searchKey = entry["searchKey"] as? String
        bowTie.rating = entry["rating"] as? Double ?? 0
        bowTie.timesWorn = Int32(entry["timesWorn"] as? Int ?? 0)
        bowTie.lastWorn = entry["lastWorn"] as? Date
        bowTie.isFavorite = entry["isFavorite"] as? Bool ?? false
        bowTie.url = (entry["url"] as? String).flatMap(URL.init(string:))
        if let tint = entry["tintColor"] as? [String: Int] {
            bowTie.tintColor = Color(red: UInt8(tint["red"] ?? 0), green: UInt8(tint["green"] ?? 0), blue: UInt8(tint["blue"] ?? 0))
        }
    }
    try context.save()
}

@MainActor func bowTie(withKey key: String) throws -> BowTie {
    let request: NSFetchRequest<BowTie> = BowTie.fetchRequest()
    request.predicate = NSPredicate(format: "%K = %@", argumentArray: ["searchKey", key])
    guard let found = try context.fetch(request).first else { throw CommandError("no bow tie has the search key '\(key)'") }
    return found
}

@MainActor func describe(_ bowTie: BowTie) {
    let worn = bowTie.lastWorn.map { ISO8601DateFormatter().string(from: $0) } ?? "never"
    print("\(bowTie.name ?? "?") [\(bowTie.searchKey ?? "-")] colour \(bowTie.tintColor?.hex ?? "none")")
    print("  rating \(String(format: "%.1f", bowTie.rating))/5, worn \(bowTie.timesWorn) times, last \(worn)\(bowTie.isFavorite ? ", favourite" : "")")
}


do {
    try insertSampleData()
    let loop = try CommandLoop(options: options)
    var current = try bowTie(withKey: "R")
    describe(current)
    loop.run(prompt: "bowties>") { command in
        switch command.name {
        case "keys":
            let request: NSFetchRequest<BowTie> = BowTie.fetchRequest()
            request.predicate = NSPredicate(format: "searchKey != nil")
            request.sortDescriptors = [NSSortDescriptor(key: "searchKey", ascending: true)]
            print(try context.fetch(request).compactMap(\.searchKey).joined(separator: " "))
        case "show":
            current = try bowTie(withKey: command.rest)
            describe(current)
        case "wear":
            current.timesWorn += 1
            current.lastWorn = Date()
            try context.saveOrRollback()
            describe(current)
        case "rate":
            guard let rating = Double(command.rest) else { throw CommandError("a rating is a number: rate <0-5>") }
            current.rating = rating
            try context.saveOrRollback()
            describe(current)
        case "favorite", "favourite":
            current.isFavorite.toggle()
            try context.saveOrRollback()
            describe(current)
        default:
            throw CommandError("unknown command '\(command.name)'; try keys, show, wear, rate, favorite, quit")
        }
        return true
    }
} catch {
    print("error: \(CommandLoop.message(for: error))")
    exit(1)
}
