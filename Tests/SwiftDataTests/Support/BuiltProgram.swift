import Foundation

/// An executable of this package, which `swift build --build-tests` leaves beside the test
/// bundle, run on lines of standard input.
struct BuiltProgram {
    let url: URL

    init(_ name: String) {
        // The bundle may sit a level or two below the build folder (…/debug/X.xctest/…).
        let start = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let folders = sequence(first: start) { $0.pathComponents.count > 1 ? $0.deletingLastPathComponent() : nil }.prefix(5)
        url = folders.map { $0.appendingPathComponent(name) }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
            ?? start.appendingPathComponent(name)
    }

    /// What the program printed (standard output then error) for `lines`, and its exit status.
    func run(_ lines: [String], arguments: [String]) throws -> (output: String, status: Int32) {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(lines.map { $0 + "\n" }.joined().utf8))
        try input.fileHandleForWriting.close()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: printed, as: UTF8.self), process.terminationStatus)
    }
}
