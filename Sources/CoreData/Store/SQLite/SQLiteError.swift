import CSQLite

/// An SQLite failure with the statement that caused it, turned into Apple's error codes at the
/// store boundary.
struct SQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String
    let sql: String?

    var description: String {
        "SQLite error \(code): \(message)" + (sql.map { " in `\($0)`" } ?? "")
    }

    /// Whether the failure means the file is not a usable database (corrupt, foreign, truncated).
    var isNotADatabase: Bool {
        let primary = code & 0xFF
        return primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT
    }

    var isDiskFull: Bool { code & 0xFF == SQLITE_FULL || code & 0xFF == SQLITE_IOERR }

    /// The Cocoa error a caller sees: 259 for a file that is not a store, 640 for a full disk,
    /// 134030 (save failed) otherwise.
    func cocoaError(storeURL: URL?) -> NSError {
        var info: [String: Any] = ["SQLiteErrorCode": Int(code)]
        if let storeURL { info[NSURLErrorKey] = storeURL; info[NSFilePathErrorKey] = storeURL.path }
        if let sql { info["SQLiteStatement"] = sql }
        let code = isNotADatabase ? 259 : isDiskFull ? 640 : 134030
        return CoreDataError.make(code, description, info)
    }
}

extension SQLiteError: SQLStoreFailure {
    func cocoaError(saving: Bool, storeURL: URL?, storeName: String) -> NSError {
        cocoaError(storeURL: storeURL)
    }
}
