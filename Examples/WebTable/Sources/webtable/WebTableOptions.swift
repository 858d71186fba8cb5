import Foundation
import WorldCupStore

/// The command line: serve the page (the default), or apply one command to the store and exit.
struct WebTableOptions {
    enum Mode {
        case serve(host: String, port: Int)
        /// One-shot: open the store, apply, save, exit; a second process for the open pages.
        case command(TeamCommand)
    }

    static let usage = """
    usage: webtable [--port N] [--host ADDRESS] [--store PATH]
           webtable tap <team> [--store PATH]
           webtable add <team> <zone> [--store PATH]
           webtable delete <team> [--store PATH]

    Serves the World Cup table at http://ADDRESS:N/ (default 127.0.0.1:8080; --port 0 picks a
    free port and prints it). Every page shows the same table, kept live from the fetched results
    controller's change reports. tap, add and delete change the store from a second process; open
    pages show it at once.

    --store PATH   the SQLite store (default: \(WorldCupContainer.defaultStoreURL.path))
    """

    var mode: Mode = .serve(host: "127.0.0.1", port: 8080)
    var storeURL = WorldCupContainer.defaultStoreURL

    /// Reads `arguments` (without the program name); throws the mistake for a usage message.
    init(_ arguments: [String]) throws {
        var host = "127.0.0.1"
        var port = 8080
        var words: [String] = []
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--store": storeURL = URL(fileURLWithPath: try Self.value(of: argument, in: &remaining))
            case "--host": host = try Self.value(of: argument, in: &remaining)
            case "--port":
                let text = try Self.value(of: argument, in: &remaining)
                guard let number = Int(text), (0...65535).contains(number) else { throw WorldCupError("--port takes 0 to 65535, not \(text)") }
                port = number
            case _ where argument.hasPrefix("--"): throw WorldCupError("unknown option \(argument)")
            default: words.append(argument)
            }
        }
        guard let action = words.first else {
            mode = .serve(host: host, port: port)
            return
        }
        switch (action, words.count) {
        case ("tap", 2): mode = .command(TeamCommand(action: .tap, team: words[1]))
        case ("delete", 2): mode = .command(TeamCommand(action: .delete, team: words[1]))
        case ("add", 3): mode = .command(TeamCommand(action: .add, team: words[1], zone: words[2]))
        default: throw WorldCupError("cannot read '\(words.joined(separator: " "))' (quote names with spaces)")
        }
    }

    private static func value(of option: String, in remaining: inout ArraySlice<String>) throws -> String {
        guard let value = remaining.popFirst() else { throw WorldCupError("\(option) needs a value") }
        return value
    }
}
