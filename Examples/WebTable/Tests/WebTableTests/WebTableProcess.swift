import Foundation

/// The `webtable` program built beside this test bundle: the server under test, and the
/// one-shot commands that play the second process.
enum WebTableProgram {
    /// `swift test` builds every product of the package, the executable included, into the
    /// folder that holds the test bundle.
    static var url: URL {
        get throws {
            let folder = Bundle.main.bundleURL.deletingLastPathComponent()
            for candidate in [Bundle.main.bundleURL, folder] {
                let program = candidate.appendingPathComponent("webtable")
                if FileManager.default.isExecutableFile(atPath: program.path) { return program }
            }
            throw Missing(folder: folder.path)
        }
    }

    struct Missing: Error, CustomStringConvertible {
        let folder: String
        var description: String { "no webtable executable in \(folder): build the package first (swift build --package-path Examples/WebTable)" }
    }

    struct Failed: Error, CustomStringConvertible {
        let arguments: [String]
        let status: Int32
        let output: String
        var description: String { "webtable \(arguments.joined(separator: " ")) exited with \(status):\n\(output)" }
    }

    /// Runs `webtable ARGUMENTS` to the end and returns what it printed; throws if it failed.
    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = try url
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failed(arguments: arguments, status: process.terminationStatus, output: output) }
        return output
    }
}

/// `webtable --port 0 --store PATH` running as a child process, as a person would start it.
final class WebTableServerProcess {
    /// The address the server printed.
    let url: URL
    /// Everything the server printed, for a failing test's message.
    let log: URL
    private let process: Process

    init(store: URL, log: URL) async throws {
        self.log = log
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process = Process()
        process.executableURL = try WebTableProgram.url
        process.arguments = ["--port", "0", "--store", store.path]
        // A file, not a pipe: nobody has to keep reading it for the server to go on printing.
        let output = try FileHandle(forWritingTo: log)
        process.standardOutput = output
        process.standardError = output
        try process.run()
        var printed: URL?
        try await waitUntil("the server's address in \(log.path)", timeout: .seconds(30)) { [process] in
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            guard process.isRunning else { throw WebTableProgram.Failed(arguments: process.arguments ?? [], status: process.terminationStatus, output: text) }
            printed = text.split(separator: "\n").lazy.compactMap { line in
                line.range(of: "http://").map { URL(string: String(line[$0.lowerBound...])) } ?? nil
            }.first
            return printed != nil
        }
        url = printed!
    }

    var output: String {
        (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    }

    /// Stops the server as Ctrl-C would.
    func stop() {
        guard process.isRunning else { return }
        process.interrupt()
        process.waitUntilExit()
    }

    deinit { stop() }
}
