import Foundation

/// The sqlite3 command-line tool run on a store file: a reader independent of the store, for
/// checking what is really in the file.
enum SQLiteShell {
    /// The output lines of `sql` run on the database at `url`.
    static func lines(_ url: URL, _ sql: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", url.path, sql]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
