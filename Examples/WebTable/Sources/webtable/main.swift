// WebTable: the World Cup table in a browser, kept live by an NSFetchedResultsController's
// change reports (see WebTableServer and LiveTable), or one command applied from the terminal.
import Foundation
import WorldCupStore

/// Saves by the server are recorded under this author; the one-shot commands under another,
/// so the server merges theirs and skips its own.
let serverAuthor = "webtable"
let commandAuthor = "webtable-cli"

func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("webtable: \(message)\n".utf8))
    exit(status)
}

if CommandLine.arguments.contains("--help") || CommandLine.arguments.contains("-h") {
    print(WebTableOptions.usage)
    exit(0)
}
let options: WebTableOptions
do {
    options = try WebTableOptions(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail("\(error)\n\n\(WebTableOptions.usage)", status: 2)
}

do {
    switch options.mode {
    case .serve(let host, let port):
        let container = try WorldCupContainer.open(at: options.storeURL, author: serverAuthor)
        let table = try LiveTable(container: container, author: serverAuthor)
        say("store: \(options.storeURL.path)")
        try await WebTableServer(table: table, files: try PageFiles()).run(host: host, port: port)
    case .command(let command):
        let container = try WorldCupContainer.open(at: options.storeURL, author: commandAuthor)
        let context = container.newBackgroundContext()
        context.transactionAuthor = commandAuthor
        print(try context.performAndWait { try command.apply(in: context) })
    }
} catch {
    fail("\(error)")
}
