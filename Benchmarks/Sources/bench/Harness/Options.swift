import Foundation

/// The command line: `bench [--rows N] [--cases a,b] [--repetitions R] [--json PATH] ...`.
struct Options {
    var rows = 100_000
    var cases: [String]?
    var repetitions = 5
    var warmups = 1
    var jsonPath: String?
    /// Row count of the memory case's store; 1,000,000 is the stated size, smaller is quicker.
    var memoryRows = 1_000_000
    var keepFiles = false
    var list = false
    /// The server of the pg-* cases, `postgres://user@host:port/database`; also read from the
    /// environment, as the library's PostgreSQL tests read it. Without one those cases do not run.
    var postgresURL = ProcessInfo.processInfo.environment[Options.postgresVariable].flatMap { $0.isEmpty ? nil : $0 }
    /// Internal: the memory case measures each fetch in a child process of its own.
    var memoryChild: [String]?
    /// Internal: the remote-change case's other process.
    var historyWriter: [String]?

    static let usage = """
        usage: swift run -c release --package-path Benchmarks bench [options]
          --rows N            rows per case (default 100000)
          --cases a,b,c       only these cases (see --list)
          --repetitions R     timed repetitions per variant, after one warm-up (default 5)
          --warmups W         untimed warm-up runs per variant (default 1)
          --json PATH         also write the results as JSON to PATH
          --memory-rows N     rows in the memory case's store (default 1000000)
          --keep-files        leave the temporary stores in place
          --postgres URL      also run the PostgreSQL cases (pg-insert, pg-fetch-objects, pg-count,
                              pg-batch-update) on this server, postgres://user@host:port/database,
                              each store in a new schema dropped afterwards; without it (or
                              \(postgresVariable)) they do not run. They need a build without
                              PORTABLE_CORE_DATA_WITHOUT_POSTGRESQL.
          --list              list the cases and exit
        """

    static let postgresVariable = "PORTABLE_CORE_DATA_POSTGRES_URL"

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var remaining = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let next = remaining.popFirst() else { throw UsageError("\(flag) needs a value") }
            return next
        }
        func count(_ flag: String) throws -> Int {
            let text = try value(flag).replacingOccurrences(of: "_", with: "")
            guard let number = Int(text), number >= 0 else { throw UsageError("\(flag) needs a whole number, not '\(text)'") }
            return number
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--rows": options.rows = max(1, try count(argument))
            case "--cases": options.cases = try value(argument).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            case "--repetitions": options.repetitions = max(1, try count(argument))
            case "--warmups": options.warmups = try count(argument)
            case "--json": options.jsonPath = try value(argument)
            case "--memory-rows": options.memoryRows = max(1, try count(argument))
            case "--keep-files": options.keepFiles = true
            case "--postgres": options.postgresURL = try value(argument)
            case "--list": options.list = true
            case "--memory-child": options.memoryChild = Array(remaining); remaining = []
            case "--history-writer": options.historyWriter = Array(remaining); remaining = []
            case "--help", "-h": throw UsageError(nil)
            default: throw UsageError("unknown option '\(argument)'")
            }
        }
        return options
    }
}

struct UsageError: Error {
    let message: String?
    init(_ message: String?) { self.message = message }
}
