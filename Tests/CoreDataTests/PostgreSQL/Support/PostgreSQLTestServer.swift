#if canImport(CoreDataPostgreSQL)
import Foundation

/// The PostgreSQL server the tests use: the one PORTABLE_CORE_DATA_POSTGRES_URL names, or a
/// throwaway one this process starts (scripts/postgres-server) and stops at exit.
///
/// Tests share the one server and keep apart by schema (`freshStoreURL()`): a server takes about
/// a second to create and start. Stopping or restarting it disturbs every test using it at the
/// time, so tests that do should not run alongside the others.
enum PostgreSQLTestServer {
    /// postgres://… of the database, starting the server on first use; throws a clear error
    /// (never skips) when no server can be started.
    static func databaseURL() throws -> String {
        try lock.withLock { try startedServer().url }
    }

    /// A store URL for a fresh, never-used schema in that database: databaseURL +
    /// "?schema=t_<random lowercase hex>".
    static func freshStoreURL() throws -> URL {
        try storeURL(schema: "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))
    }

    /// A store URL for `schema` in that database.
    static func storeURL(schema: String) throws -> URL {
        let database = try databaseURL()
        let separator = database.contains("?") ? "&" : "?"
        guard let url = URL(string: database + separator + "schema=" + schema) else {
            throw Failure("\(database) is not a URL")
        }
        return url
    }

    /// Stops and restarts the throwaway server, on the same port (for tests of reconnecting
    /// after a server restart); throws if the URL came from the environment.
    static func restart() throws {
        try stop()
        try start()
    }

    /// Stops the throwaway server, keeping its folder and port so that `start()` brings back the
    /// same URLs.
    static func stop() throws {
        try lock.withLock { _ = try runScript("halt", throwawayFolder()) }
    }

    /// Starts the server: the first time, or again after `stop()`.
    static func start() throws {
        try lock.withLock {
            if server == nil {
                _ = try startedServer()
            } else {
                _ = try runScript("resume", throwawayFolder())
            }
        }
    }

    private enum Server {
        case fromEnvironment(url: String)
        /// Started by this process; its folder holds its data, socket and log, and goes at exit.
        case throwaway(url: String, folder: URL)

        var url: String {
            switch self {
            case .fromEnvironment(let url), .throwaway(let url, _): url
            }
        }
    }

    private static let lock = NSLock()
    /// The server once the first use has started it, or why it could not start (kept, so that
    /// every test fails at once rather than each trying again). Only read or written under
    /// `lock`, which is what makes `nonisolated(unsafe)` safe; a global rather than state
    /// captured by a closure, since the atexit handler is a C function and cannot capture.
    nonisolated(unsafe) private static var server: Result<Server, any Error>?

    /// Call with `lock` held.
    private static func startedServer() throws -> Server {
        if let server { return try server.get() }
        let result = Result { () throws -> Server in
            let environment = ProcessInfo.processInfo.environment["PORTABLE_CORE_DATA_POSTGRES_URL"] ?? ""
            return environment.isEmpty ? try startThrowaway() : .fromEnvironment(url: environment)
        }
        server = result
        return try result.get()
    }

    /// Call with `lock` held.
    private static func throwawayFolder() throws -> URL {
        guard case .throwaway(_, let folder) = try startedServer() else {
            throw Failure("the tests use the server PORTABLE_CORE_DATA_POSTGRES_URL names, which they cannot stop or start")
        }
        return folder
    }

    /// scripts/postgres-server of this repository, found from this file's place in it
    /// (Tests/CoreDataTests/PostgreSQL/Support/).
    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("scripts/postgres-server")

    private static func startThrowaway() throws -> Server {
        // A short name: the server's unix socket, folder/.s.PGSQL.port, must fit in 107 bytes.
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("pgtest-" + UUID().uuidString.prefix(8).lowercased())
        let url = try runScript("start", folder)
        atexit { PostgreSQLTestServer.removeThrowawayServer() }
        return .throwaway(url: url, folder: folder)
    }

    private static func removeThrowawayServer() {
        lock.withLock {
            guard case .success(.throwaway(_, let folder)) = server else { return }
            _ = try? runScript("stop", folder)
        }
    }

    /// Runs scripts/postgres-server `command` on `folder`; the line it printed (the URL, for
    /// start and resume).
    private static func runScript(_ command: String, _ folder: URL) throws -> String {
        let process = Process()
        process.executableURL = script
        process.arguments = [command, folder.path]
        let output = Pipe()
        process.standardOutput = output
        // Its messages go to a file rather than a second pipe: reading one pipe to its end while
        // the script fills the other would block both.
        let messages = FileManager.default.temporaryDirectory.appendingPathComponent("postgres-server-\(UUID().uuidString).log")
        try Data().write(to: messages)
        defer { try? FileManager.default.removeItem(at: messages) }
        let messagesHandle = try FileHandle(forWritingTo: messages)
        defer { try? messagesHandle.close() }
        process.standardError = messagesHandle
        do {
            try process.run()
        } catch {
            throw Failure("cannot run \(script.path): \(error)")
        }
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let said = (try? String(contentsOf: messages, encoding: .utf8)) ?? ""
            throw Failure("\(script.path) \(command) \(folder.path) failed (exit status \(process.terminationStatus)):\n\(said)")
        }
        return String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String

        init(_ reason: String) { description = "PostgreSQL test server: " + reason }
    }
}
#endif
