import Foundation

/// The options every example accepts: `--store PATH` (default: the user's data directory),
/// `--script FILE` (commands from a file instead of standard input), and `--help`.
public struct ExampleOptions: Sendable {
    public var storePath: String?
    public var scriptPath: String?

    public init(arguments: [String] = Array(CommandLine.arguments.dropFirst()), usage: String) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--store": storePath = remaining.popFirst()
            case "--script": scriptPath = remaining.popFirst()
            case "--help", "-h":
                print(usage)
                exit(0)
            default:
                FileHandle.standardError.write(Data("unknown option \(argument)\n\(usage)\n".utf8))
                exit(2)
            }
        }
    }
}
