// HitList (chapter 1): a list of names kept in Core Data, with key-value coding only.
import CoreData
import ExampleSupport

/// What Xcode generates for the model's `Person` (Codegen "Class Definition"); the program
/// itself uses key-value coding only, as the chapter does.
final class Person: NSManagedObject {
    @Managed var name: String?
}

let usage = """
usage: hitlist [--store PATH] [--script FILE]
commands: add <name>, list, quit
"""
let options = ExampleOptions(usage: usage)
let container = ExampleStore.open(name: "HitList", options: options)
let context = container.viewContext

@MainActor func people() throws -> [NSManagedObject] {
    let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
    return try context.fetch(request)
}

@MainActor func printList() throws {
    let names = try people().map { $0.value(forKeyPath: "name") as? String ?? "" }
    print(names.isEmpty ? "(no names yet)" : names.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: "\n"))
}

do {
    let loop = try CommandLoop(options: options)
    try printList()
    loop.run(prompt: "hitlist>") { command in
        switch command.name {
        case "add":
            guard !command.rest.isEmpty else { throw CommandError("a name is needed: add <name>") }
            let person = NSManagedObject(entity: NSEntityDescription.entity(forEntityName: "Person", in: context)!, insertInto: context)
            person.setValue(command.rest, forKeyPath: "name")
            try context.saveOrRollback()
            print("added \(command.rest)")
        case "list":
            try printList()
        default:
            throw CommandError("unknown command '\(command.name)'; try add, list, quit")
        }
        return true
    }
} catch {
    print("error: \(CommandLoop.message(for: error))")
    exit(1)
}
