/// The SQLite store's options: pragmas, vacuum and analyze when the store opens.

/// A dictionary of SQLite pragma names and values (strings or numbers) run on the store's
/// writing connection when the store opens, e.g. `["cache_size": 4000]`. `journal_mode` is not
/// changed: the store's readers and writer rely on WAL (see README).
public let NSSQLitePragmasOption = "NSSQLitePragmasOption"
/// `true`: rebuild (`VACUUM`) the store file when it is added, reclaiming free pages.
public let NSSQLiteManualVacuumOption = "NSSQLiteManualVacuumOption"
/// `true`: refresh SQLite's query-planner statistics (`ANALYZE`) when the store is added.
public let NSSQLiteAnalyzeOption = "NSSQLiteAnalyzeOption"

extension SQLiteStore {
    /// The pragma statements `NSSQLitePragmasOption` asks for, checked so that no name or value
    /// can carry other SQL. A bad entry throws rather than being skipped.
    func requestedPragmas() throws -> [String] {
        guard let pragmas = StoreOptions.dictionary(NSSQLitePragmasOption, in: options ?? [:]) else {
            throw CoreDataError.misuse("NSSQLitePragmasOption must be a dictionary of pragma names and values")
        }
        return try pragmas.keys.sorted().compactMap { name in
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                throw CoreDataError.misuse("'\(name)' is not an SQLite pragma name")
            }
            // The store's concurrency rests on WAL; see the option's documentation.
            if name.lowercased() == "journal_mode" { return nil }
            return "PRAGMA \(name) = \(try Self.literal(pragmas[name]!, pragma: name))"
        }
    }

    private static func literal(_ value: Any, pragma name: String) throws -> String {
        switch value {
        case let number as NSNumber: return number.stringValue
        case let integer as Int: return String(integer)
        case let double as Double: return String(double)
        case let string as String:
            guard string.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_-.".contains($0)) }) else {
                throw CoreDataError.misuse("'\(string)' is not a value for SQLite pragma \(name)")
            }
            return "'\(string)'"
        default:
            throw CoreDataError.misuse("\(value) is not a value for SQLite pragma \(name)")
        }
    }

    /// `VACUUM` and `ANALYZE` as the options ask, on the writer, once, when the store opens.
    func runMaintenanceOptions(on connection: SQLiteConnection) throws {
        guard !isReadOnly else { return }
        if StoreOptions.flag(NSSQLiteManualVacuumOption, in: options ?? [:]) { try connection.execute("VACUUM") }
        if StoreOptions.flag(NSSQLiteAnalyzeOption, in: options ?? [:]) { try connection.execute("ANALYZE") }
    }
}
