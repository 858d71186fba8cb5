// DogWalk (chapter 3): a dog and its ordered list of walks, on a hand-built Core Data stack.
import CoreData
import ExampleSupport

final class Dog: NSManagedObject {
    @Managed var name: String?
    @Managed var walks: NSOrderedSet?
}

final class Walk: NSManagedObject {
    @Managed var date: Date?
    /// Kilometres; added in the model's second version, so stores of the first migrate.
    @Managed var distance: Double?
    @Managed var dog: Dog?
}

let usage = """
usage: dogwalk [--store PATH] [--script FILE]
commands: walk [ISO-8601 date [km]], delete <row>, list, dog <name>, dogs, quit
"""
let options = ExampleOptions(usage: usage)
let container = ExampleStore.open(name: "DogWalk", options: options)
let context = container.viewContext
let dateFormatter = ISO8601DateFormatter()

/// The find-or-create pattern of the chapter: the named dog, inserted if it is not there yet.
@MainActor func dog(named name: String) throws -> Dog {
    let request: NSFetchRequest<Dog> = NSFetchRequest(entityName: "Dog")
    request.predicate = NSPredicate(format: "%K == %@", "name", name)
    if let existing = try context.fetch(request).first { return existing }
    let created = Dog(context: context)
    created.name = name
    try context.saveOrRollback()
    return created
}


@MainActor func printWalks(of dog: Dog) {
    let walks = dog.walks?.array as? [Walk] ?? []
    print("\(dog.name ?? "?"): \(walks.count) walk\(walks.count == 1 ? "" : "s")")
    for (row, walk) in walks.enumerated() {
        let distance = walk.distance.map { " (\($0) km)" } ?? ""
        print("  \(row + 1). \(walk.date.map(dateFormatter.string(from:)) ?? "?")\(distance)")
    }
}

do {
    var currentDog = try dog(named: "Fido")
    let loop = try CommandLoop(options: options)
    printWalks(of: currentDog)
    loop.run(prompt: "dogwalk>") { command in
        switch command.name {
        case "walk":
            let parts = command.rest.split(separator: " ").map(String.init)
            let date: Date
            if let text = parts.first {
                guard let parsed = dateFormatter.date(from: text) else { throw CommandError("not an ISO-8601 date: \(text)") }
                date = parsed
            } else {
                date = Date()
            }
            let distance = try parts.dropFirst().first.map { text in
                guard let kilometres = Double(text) else { throw CommandError("not a distance in km: \(text)") }
                return kilometres
            }
            let walk = Walk(context: context)
            walk.date = date
            walk.distance = distance
            currentDog.mutableOrderedSetValue(forKey: "walks").add(walk)
            try context.saveOrRollback()
            printWalks(of: currentDog)
        case "delete":
            let walks = currentDog.walks?.array as? [Walk] ?? []
            guard let row = Int(command.rest), walks.indices.contains(row - 1) else {
                throw CommandError("no walk at row '\(command.rest)'; rows are 1...\(walks.count)")
            }
            context.delete(walks[row - 1])
            try context.saveOrRollback()
            printWalks(of: currentDog)
        case "list":
            printWalks(of: currentDog)
        case "dog":
            guard !command.rest.isEmpty else { throw CommandError("a name is needed: dog <name>") }
            currentDog = try dog(named: command.rest)
            printWalks(of: currentDog)
        case "dogs":
            let request: NSFetchRequest<Dog> = NSFetchRequest(entityName: "Dog")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            for dog in try context.fetch(request) { print("\(dog.name ?? "?") (\(dog.walks?.count ?? 0) walks)") }
        default:
            throw CommandError("unknown command '\(command.name)'; try walk, delete, list, dog, dogs, quit")
        }
        return true
    }
} catch {
    print("error: \(CommandLoop.message(for: error))")
    exit(1)
}
