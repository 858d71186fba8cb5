import CSQLite

/// SQLITE_TRANSIENT: tells SQLite to copy bound text and blobs before the call returns.
private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One open SQLite database with a bounded cache of prepared statements.
///
/// Not thread-safe by itself: the owning store uses each connection from one thread at a time
/// (the writer behind its lock, a reader while checked out of the pool).
final class SQLiteConnection {
    private var handle: OpaquePointer?
    /// Prepared statements by SQL text, at most `statementCapacity`. Predicates with `IN` lists
    /// of every length would otherwise grow the cache without end; past the bound the least
    /// recently used statement not running at the moment is finalised (an O(capacity) scan, paid
    /// only when a new shape arrives at a full cache).
    private var statements: [String: CachedStatement] = [:]
    private var useClock: UInt64 = 0
    /// The statement checked out last, with its SQL. A save runs the same INSERT for every row
    /// from the same string (its table layout's), and comparing a string with itself is a
    /// pointer comparison where a dictionary look-up hashes all of it, for every row (BENCHMARKS.md).
    private var lastCheckedOut: (sql: String, statement: CachedStatement)?
    static let statementCapacity = 128

    /// A class, so that a use updates its entry without hashing the SQL text again.
    private final class CachedStatement {
        let handle: OpaquePointer
        var lastUse: UInt64
        /// Nested uses: a row callback may run another statement on the same connection.
        var activeUses = 1

        init(handle: OpaquePointer, lastUse: UInt64) {
            self.handle = handle
            self.lastUse = lastUse
        }
    }

    /// Opens (creating if asked) the database at `path` in WAL mode with a busy timeout, so that
    /// a second process writing at the same time makes us wait rather than fail.
    init(path: String, create: Bool, readOnly: Bool = false, busyTimeoutMilliseconds: Int32 = 10_000) throws {
        var flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        flags |= SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(handle)
            handle = nil
            throw SQLiteError(code: status, message: message, sql: nil)
        }
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement.handle) }
        sqlite3_close_v2(handle)
    }

    /// How many prepared statements the cache holds (for tests of its bound).
    var cachedStatementCount: Int { statements.count }

    var rawHandle: OpaquePointer? { handle }

    /// Runs one or more statements that take no arguments and return nothing of interest.
    func execute(_ sql: String) throws {
        let trace = SQLTrace.start(sql, [])
        var errorMessage: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        guard status == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(errorMessage)
            throw SQLiteError(code: status, message: message, sql: sql)
        }
        trace?.finish(rows: Int(sqlite3_changes(handle))) { [] }
    }

    /// Runs `sql` with `bindings`, calling `row` for each result row.
    func query(_ sql: String, _ bindings: [SQLValue] = [], row: (SQLiteRow) throws -> Void) throws {
        let cached = try checkOut(sql)
        defer { checkIn(cached) }
        let statement = cached.handle
        try bind(bindings, to: statement, sql: sql)
        let trace = SQLTrace.start(sql, bindings)
        var count = 0
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { throw error(status, sql) }
            try row(SQLiteRow(statement: statement))
            count += 1
        }
        trace?.finish(rows: count) { queryPlan(sql, bindings) }
    }

    /// Runs a statement that returns no rows; returns the number of rows it changed.
    @discardableResult
    func run(_ sql: String, _ bindings: [SQLValue] = []) throws -> Int {
        let cached = try checkOut(sql)
        defer { checkIn(cached) }
        let statement = cached.handle
        try bind(bindings, to: statement, sql: sql)
        let trace = SQLTrace.start(sql, bindings)
        let status = sqlite3_step(statement)
        guard status == SQLITE_DONE || status == SQLITE_ROW else { throw error(status, sql) }
        let changes = Int(sqlite3_changes(handle))
        trace?.finish(rows: changes) { queryPlan(sql, bindings) }
        return changes
    }

    /// SQLite's `EXPLAIN QUERY PLAN` for `sql`, one line per step, for `CORE_DATA_SQL_DEBUG=4`.
    /// Prepared afresh and stepped directly, so it is neither cached nor traced itself.
    private func queryPlan(_ sql: String, _ bindings: [SQLValue]) -> [String] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "EXPLAIN QUERY PLAN " + sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            return ["unavailable: \(lastErrorMessage)"]
        }
        defer { sqlite3_finalize(statement) }
        guard (try? bind(bindings, to: statement, sql: sql)) != nil else { return ["unavailable: \(lastErrorMessage)"] }
        var lines: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            lines.append(SQLiteRow(statement: statement).text(at: 3))
        }
        return lines
    }

    /// The first column of the first row, or nil.
    func scalar(_ sql: String, _ bindings: [SQLValue] = []) throws -> SQLValue? {
        var result: SQLValue?
        try query(sql, bindings) { row in if result == nil { result = row.value(at: 0) } }
        return result
    }

    /// Runs `body` inside one IMMEDIATE transaction: all of it is committed, or none of it.
    ///
    /// IMMEDIATE takes the write lock up front, so a busy second writer waits on the busy
    /// timeout here instead of failing half-way through a save.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    private var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    private func error(_ status: Int32, _ sql: String) -> SQLiteError {
        SQLiteError(code: sqlite3_extended_errcode(handle), message: lastErrorMessage, sql: sql)
    }

    /// The prepared statement for `sql`, marked running until `checkIn`: the last one if its
    /// SQL is the same, otherwise one hash of the SQL text.
    private func checkOut(_ sql: String) throws -> CachedStatement {
        useClock &+= 1
        if let cached = lastCheckedOut?.sql == sql ? lastCheckedOut?.statement : statements[sql] {
            cached.lastUse = useClock
            cached.activeUses += 1
            lastCheckedOut = (sql, cached)
            return cached
        }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status, sql) }
        if statements.count >= Self.statementCapacity { evictLeastRecentlyUsed() }
        let cached = CachedStatement(handle: statement, lastUse: useClock)
        statements[sql] = cached
        lastCheckedOut = (sql, cached)
        return cached
    }

    /// Resets a statement after use, so it holds no read lock and no bound values.
    private func checkIn(_ cached: CachedStatement) {
        sqlite3_reset(cached.handle)
        sqlite3_clear_bindings(cached.handle)
        cached.activeUses -= 1
    }

    private func evictLeastRecentlyUsed() {
        guard let (sql, oldest) = statements.filter({ $0.value.activeUses == 0 }).min(by: { $0.value.lastUse < $1.value.lastUse }) else { return }
        if lastCheckedOut?.statement === oldest { lastCheckedOut = nil }
        sqlite3_finalize(oldest.handle)
        statements.removeValue(forKey: sql)
    }

    private static let emptyText: StaticString = ""

    private func bind(_ values: [SQLValue], to statement: OpaquePointer, sql: String) throws {
        // The compiler may bind an operand and then drop it (a comparison that can never hold,
        // such as a string with a number or an unsaved object, compiles to `0`). SQLite rejects
        // a value past the statement's last placeholder (SQLITE_RANGE), so those are skipped.
        let placeholders = Int(sqlite3_bind_parameter_count(statement))
        for (offset, value) in values.prefix(placeholders).enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(statement, index)
            case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
            case .real(let number): status = sqlite3_bind_double(statement, index, number)
            case .text(var text):
                // Bound by byte count, not as a C string, so embedded NUL characters survive;
                // from the string's own storage, not a copy into an array. An empty string
                // needs a pointer all the same, or it would bind NULL.
                status = text.withUTF8 { buffer in
                    let bytes = UnsafeRawPointer(buffer.baseAddress ?? Self.emptyText.utf8Start)
                    return sqlite3_bind_text64(statement, index, bytes.assumingMemoryBound(to: CChar.self),
                                               sqlite3_uint64(buffer.count), transientDestructor, UInt8(SQLITE_UTF8))
                }
            case .blob(let bytes):
                status = bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_blob64(statement, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), sqlite3_uint64(buffer.count), transientDestructor)
                }
            }
            guard status == SQLITE_OK else { throw error(status, sql) }
        }
    }
}

/// A view of the current row of a statement; valid only inside the `query` callback.
struct SQLiteRow: SQLRow {
    let statement: OpaquePointer

    func value(at column: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT: return .text(text(at: column))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let pointer = sqlite3_column_blob(statement, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
        default: return .null
        }
    }

    func int64(at column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    func double(at column: Int32) -> Double { sqlite3_column_double(statement, column) }

    var columnCount: Int32 { sqlite3_column_count(statement) }

    func storageClass(at column: Int32) -> SQLStorageClass {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: .integer
        case SQLITE_FLOAT: .real
        case SQLITE_TEXT: .text
        case SQLITE_BLOB: .blob
        default: .null
        }
    }

    /// The column as text, whatever its storage class (SQLite converts numbers exactly as it
    /// prints them, which is how decimals are read back without loss).
    func text(at column: Int32) -> String {
        guard let pointer = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }
}

extension SQLiteConnection {
    /// Replaces this database's whole content with `source`'s through SQLite's backup API: one
    /// consistent snapshot of the source, written under this connection's locks.
    func replaceContents(with source: SQLiteConnection) throws {
        guard let backup = sqlite3_backup_init(rawHandle, "main", source.rawHandle, "main") else {
            throw SQLiteError(code: sqlite3_errcode(rawHandle), message: String(cString: sqlite3_errmsg(rawHandle)), sql: nil)
        }
        let status = sqlite3_backup_step(backup, -1)
        sqlite3_backup_finish(backup)
        guard status == SQLITE_DONE else {
            throw SQLiteError(code: status, message: String(cString: sqlite3_errstr(status)), sql: nil)
        }
    }
}
