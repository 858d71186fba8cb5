import Foundation

/// Who does the work in a variant; ratios are taken against the floor and GRDB's records.
enum Role: String, Codable {
    case coreData = "CoreData"
    /// The SwiftData layer over our Core Data.
    case swiftData = "SwiftData"
    case grdbRecords = "GRDB records"
    case grdbRows = "GRDB rows"
    case floor = "C sqlite3"
    /// The floor of the PostgreSQL cases: postgres-nio used by hand.
    case postgresNIO = "postgres-nio"
    /// Another way of doing the work, used as a baseline (with our library: a plain fetch, a
    /// refetch and diff; without it: postgres-nio's one-statement bulk insert).
    case reference = "reference"

    /// What "x floor" divides by: the least work the same result can cost through that database's client.
    var isFloor: Bool { self == .floor || self == .postgresNIO }
}

/// What a variant's samples count.
enum Unit: String, Codable {
    case milliseconds = "ms"
    case mebibytes = "MiB"
}

/// One way of doing a case's work. `measure` runs one repetition, preparing whatever it needs
/// untimed, and returns the measured quantity.
struct Variant {
    let label: String
    let role: Role
    var unit: Unit = .milliseconds
    /// Warm-ups make sense for timings; a memory reading is taken once per child process.
    var warmups: Int?
    var repetitions: Int?
    let measure: () throws -> Double
}

/// A ratio the project aims for: `subject`'s median over `base`'s median (or the subject's
/// median alone when there is no base) at most `limit`.
struct Target {
    let statement: String
    let subject: String
    let base: String?
    let limit: Double
    /// Strictly below the limit (for "faster than").
    var strict = false
    /// A ratio worth reporting that is not a goal.
    var informational = false
}

/// A benchmark: the same work done several ways on fresh temporary files.
///
/// Cases are declared as `nonisolated(unsafe) static let`s: the program builds and runs them on
/// its main thread only, one after another.
struct BenchmarkCase {
    let id: String
    let title: String
    /// One sentence for BENCHMARKS.md.
    let explanation: String
    var targets: [Target] = []
    /// Runs on the PostgreSQL server of `--postgres`: never by default without one.
    var needsPostgreSQL = false
    /// Remarks drawn from the results (a feature missing from this build, say).
    var notes: ([(Variant, Summary)]) -> [String] = { _ in [] }
    /// Builds the variants; called once, with a fresh folder for the case's files.
    let makeVariants: (CaseEnvironment) throws -> [Variant]
}

/// What a case gets to work with.
struct CaseEnvironment {
    let options: Options
    let directory: URL
    let data: TeamData
    #if POSTGRESQL_CASES
    /// The server of the pg-* cases; nil when the run was given no URL.
    var postgres: PostgresServer?
    #endif

    var rows: Int { options.rows }

    /// Objects in the background save the merge case brings into the view context.
    static let mergedCount = 10_000

    /// A new file path in the case's folder.
    func storeURL(_ name: String) -> URL {
        directory.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8)).sqlite")
    }
}
