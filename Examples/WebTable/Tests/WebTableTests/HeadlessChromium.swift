import Foundation

/// Debian's Chromium, headless, with the DevTools protocol on a port of its choosing.
///
/// `--remote-debugging-port=0` lets Chromium pick a free port, which it writes with the browser
/// endpoint's path into `DevToolsActivePort` in the profile folder, so parallel runs never
/// collide.
final class HeadlessChromium {
    static let defaultPath = "/usr/bin/chromium"

    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String {
            "Chromium is not installed at \(path): the browser test needs it. Install it with scripts/webtable-test (or apt-get install -y chromium), or set CHROMIUM to its path."
        }
    }

    /// `ws://127.0.0.1:PORT/devtools/browser/ID`, the browser-wide DevTools endpoint.
    let endpoint: URL
    private let process: Process

    /// Starts Chromium with its profile in `profile`, and waits for its DevTools endpoint.
    init(profile: URL) async throws {
        let path = ProcessInfo.processInfo.environment["CHROMIUM"] ?? Self.defaultPath
        guard FileManager.default.isExecutableFile(atPath: path) else { throw Missing(path: path) }
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let log = profile.deletingLastPathComponent().appendingPathComponent("chromium.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--no-first-run", "--no-default-browser-check", "--window-size=900,1400",
            "--remote-debugging-port=0", "--user-data-dir=\(profile.path)", "about:blank",
        ]
        let output = try FileHandle(forWritingTo: log)
        process.standardOutput = output
        process.standardError = output
        try process.run()

        let portFile = profile.appendingPathComponent("DevToolsActivePort")
        var lines: [Substring] = []
        try await waitUntil("Chromium's DevToolsActivePort (log: \(log.path))", timeout: .seconds(30)) {
            guard process.isRunning else { throw Exited(log: (try? String(contentsOf: log, encoding: .utf8)) ?? "") }
            lines = ((try? String(contentsOf: portFile, encoding: .utf8)) ?? "").split(separator: "\n")
            return lines.count >= 2
        }
        self.process = process
        endpoint = URL(string: "ws://127.0.0.1:\(lines[0])\(lines[1])")!
    }

    struct Exited: Error, CustomStringConvertible {
        let log: String
        var description: String { "Chromium exited at startup:\n\(log)" }
    }

    /// Ends the browser and waits for it, so that its profile can be removed.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }
}
