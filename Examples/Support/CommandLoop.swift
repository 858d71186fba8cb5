import Foundation

/// One line the user typed: a command word and what follows it.
public struct Command: Sendable {
    public let name: String
    /// Everything after the command word, trimmed (a name may contain spaces).
    public let rest: String
    public var words: [String] { rest.split(separator: " ").map(String.init) }

    init?(line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return nil }
        let parts = trimmed.split(separator: " ", maxSplits: 1).map(String.init)
        name = parts[0].lowercased()
        rest = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
    }
}

/// A mistake in a command: printed as one line, and the program goes on.
public struct CommandError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Reads commands from a terminal, standard input, or `--script FILE`, one per line, and hands
/// each to the program. Errors become one-line messages; the loop ends at `quit` or end of input.
public struct CommandLoop {
    public let options: ExampleOptions
    private let lines: AnyIterator<String>

    public init(options: ExampleOptions) throws {
        self.options = options
        if let script = options.scriptPath {
            guard let text = try? String(contentsOfFile: script, encoding: .utf8) else {
                throw CommandError("cannot read script \(script)")
            }
            lines = AnyIterator(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).makeIterator())
        } else {
            lines = AnyIterator { readLine() }
        }
    }

    /// Whether a person is typing: prompts and in-place redraws only make sense then.
    public var isInteractive: Bool { options.scriptPath == nil && isatty(STDIN_FILENO) != 0 }

    /// Runs `handle` for each command until it returns false, `quit`, or the input ends.
    public func run(prompt: String, _ handle: (Command) throws -> Bool) {
        while true {
            if isInteractive {
                print(prompt, terminator: " ")
                fflush(nil)
            }
            guard let line = lines.next() else { return }
            guard let command = Command(line: line) else { continue }
            if !isInteractive { print("\(prompt) \(line.trimmingCharacters(in: .whitespaces))") }
            if command.name == "quit" || command.name == "exit" { return }
            do {
                guard try handle(command) else { return }
            } catch {
                print("error: \(Self.message(for: error))")
            }
            fflush(nil)
        }
    }

    /// A short, single-line explanation of any error.
    public static func message(for error: Error) -> String {
        if let error = error as? CommandError { return error.description }
        let nsError = error as NSError
        if let details = nsError.userInfo["NSDetailedErrors"] as? [NSError], !details.isEmpty {
            return details.map(\.localizedDescription).joined(separator: "; ")
        }
        return nsError.localizedDescription.replacingOccurrences(of: "\n", with: " ")
    }
}
