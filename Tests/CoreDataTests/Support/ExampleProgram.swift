import Foundation

/// Runs one of the example executables (built next to the test bundle) on a script of commands
/// and returns what it printed.
struct ExampleProgram {
    let name: String

    static var buildDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    var executable: URL {
        let beside = Self.buildDirectory.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        // The test bundle may sit one level deeper (…/debug/X.xctest/…); walk up to find it.
        var directory = Self.buildDirectory
        for _ in 0..<4 {
            directory = directory.deletingLastPathComponent()
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return beside
    }

    /// The program's standard output (and, after it, standard error) for `commands` as stdin.
    func run(_ commands: [String], arguments: [String]) throws -> (output: String, status: Int32) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data((commands.joined(separator: "\n") + "\n").utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), process.terminationStatus)
    }
}
