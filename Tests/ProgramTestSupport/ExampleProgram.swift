import Foundation
import Synchronization

/// Runs one of this package's executables (`swift build --build-tests` leaves them next to the
/// test bundle) on a script of commands and returns what it printed. Shared by the CoreData and
/// SwiftData suites, so it depends on neither.
public struct ExampleProgram: Sendable {
    public let name: String

    public init(name: String) {
        self.name = name
    }

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

    /// The lines `lines` (a transcript) shows after the echo of `command`, up to the next prompt.
    public func block(after command: String, in lines: some Collection<String>) throws -> [String] {
        guard let start = lines.firstIndex(of: "\(name)> \(command)") else { throw MissingEcho(command: command) }
        return Array(lines[lines.index(after: start)...].prefix { !$0.hasPrefix("\(name)> ") })
    }

    /// The program, left running: a test sends it lines and waits for what it prints.
    public func start(arguments: [String]) throws -> RunningProgram {
        try RunningProgram(executable: executable, arguments: arguments)
    }

    /// The program's standard output (and, after it, standard error) for `commands` as stdin.
    public func run(_ commands: [String], arguments: [String]) throws -> (output: String, status: Int32) {
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

/// A program that keeps running while a test talks to it: lines go to its standard input one
/// at a time, and its output is collected as it comes, so a test can wait for what another
/// process made it print.
public final class RunningProgram: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let collected = Mutex("")

    init(executable: URL, arguments: [String]) throws {
        let output = Pipe()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let reading = output.fileHandleForReading
        Thread { [self] in
            while case let data = reading.availableData, !data.isEmpty {
                self.collected.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }.start()
    }

    /// Everything printed so far.
    public var output: String { collected.withLock { $0 } }

    public func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits until the output after the last `after` in it contains `text`; false after `timeout`.
    public func waitForOutput(_ text: String, after: String = "", timeout: TimeInterval = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let output = output
            if let start = after.isEmpty ? output.startIndex : output.range(of: after, options: .backwards)?.upperBound,
               output[start...].contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    /// Ends its input and waits for it to exit; its exit status.
    public func finish() throws -> Int32 {
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// A transcript without the echo of a command a test sent.
public struct MissingEcho: Error, CustomStringConvertible {
    public let command: String
    public var description: String { "the transcript never echoes the command \"\(command)\"" }
}
