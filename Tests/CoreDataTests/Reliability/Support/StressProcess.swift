#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The `CoreDataStress` program (Sources/CoreDataStress) run as a child process.
struct StressProcess {
    enum LookupError: Error, CustomStringConvertible {
        case notBuilt([String])
        var description: String {
            guard case .notBuilt(let places) = self else { return "" }
            return "CoreDataStress is not built (looked in \(places.joined(separator: ", "))); run `swift build --product CoreDataStress` or set CORE_DATA_STRESS to its path"
        }
    }

    /// Where `swift build` put the program: beside the test bundle (same build directory and
    /// configuration, sanitizers included), else in the package's `.build/debug`.
    static func executable() throws -> URL {
        var candidates: [URL] = []
        if let explicit = ProcessInfo.processInfo.environment["CORE_DATA_STRESS"] {
            candidates.append(URL(fileURLWithPath: explicit))
        }
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(runner.deletingLastPathComponent().appendingPathComponent("CoreDataStress"))
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("CoreDataStress"))
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/CoreDataStress"))
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) { return found }
        throw LookupError.notBuilt(candidates.map(\.path))
    }

    let process = Process()
    let errorLog: URL

    /// Starts `CoreDataStress <arguments>`, its standard error going to `errorLog` and its
    /// standard output to `outputLog` (or nowhere), with `environment` added to this process's.
    init(_ arguments: [String], errorLog: URL, outputLog: URL? = nil, environment: [String: String] = [:]) throws {
        self.errorLog = errorLog
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        process.executableURL = try Self.executable()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        process.standardError = try FileHandle(forWritingTo: errorLog)
        if let outputLog {
            _ = FileManager.default.createFile(atPath: outputLog.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: outputLog)
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        try process.run()
    }

    /// SIGKILL, then waits; returns false if the child had already exited by itself.
    @discardableResult
    func kill() -> Bool {
        let wasRunning = process.isRunning
        #if canImport(Glibc)
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
        #else
        _ = Darwin.kill(process.processIdentifier, SIGKILL)
        #endif
        process.waitUntilExit()
        return wasRunning && process.terminationReason == .uncaughtSignal
    }

    /// Waits for a normal exit; the child's standard error when it failed.
    func waitForSuccess() -> String? {
        process.waitUntilExit()
        guard process.terminationReason != .exit || process.terminationStatus != 0 else { return nil }
        let message = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
        return "exit \(process.terminationStatus) (\(process.terminationReason == .exit ? "status" : "signal")): \(message)"
    }

    var standardErrorText: String { (try? String(contentsOf: errorLog, encoding: .utf8)) ?? "" }
}
