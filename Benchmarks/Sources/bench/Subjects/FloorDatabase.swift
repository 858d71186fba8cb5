import BenchSQLite
import Foundation

/// SQLITE_TRANSIENT: SQLite copies bound text before the call returns.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// The floor: one sqlite3 connection used through the C API directly, with prepared
/// statements. Only opening, closing and error checks are wrapped; every benchmark body binds,
/// steps and reads columns with the C calls themselves.
final class FloorDatabase {
    let handle: OpaquePointer

    /// Opens `url` in WAL mode with synchronous=NORMAL, as the CoreData store and GRDB are.
    init(_ url: URL) throws {
        var handle: OpaquePointer?
        let status = sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw BenchError("cannot open \(url.path): \(status)")
        }
        self.handle = handle
        try execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL")
    }

    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            defer { sqlite3_free(message) }
            throw BenchError("\(sql): \(message.map { String(cString: $0) } ?? "error")")
        }
    }

    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK, let statement else {
            throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        return statement
    }

    /// Steps a statement that returns no rows, checking it finished.
    func finish(_ statement: OpaquePointer) throws {
        let status = sqlite3_step(statement)
        guard status == SQLITE_DONE || status == SQLITE_ROW else {
            throw BenchError("step: \(String(cString: sqlite3_errmsg(handle)))")
        }
        sqlite3_reset(statement)
    }

    /// The first column of the first row of `sql`, as an integer.
    func integer(_ sql: String) throws -> Int64 {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw BenchError("\(sql): no row") }
        return sqlite3_column_int64(statement, 0)
    }

    func text(_ sql: String) throws -> String {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else { throw BenchError("\(sql): no row") }
        return String(cString: text)
    }
}

/// Reads a text column without going through a C string scan.
@inline(__always)
func columnString(_ statement: OpaquePointer, _ column: Int32) -> String {
    guard let pointer = sqlite3_column_text(statement, column) else { return "" }
    return String(decoding: UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self)
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
