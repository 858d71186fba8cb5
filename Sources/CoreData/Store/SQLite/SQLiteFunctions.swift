import CSQLite

/// SQLITE_TRANSIENT: SQLite copies the result before our buffer goes away.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
/// SQLITE_DETERMINISTIC: lets SQLite factor calls with constant arguments out of loops.
private let deterministic: Int32 = 0x800

// The functions and collations compiled SQL calls. Each runs the code the in-memory evaluator
// and comparator run, so Unicode folding, LIKE, MATCHES and localized orders agree exactly.
extension SQLCompiler {
    /// Registers NSPRED_FOLD, NSPRED_STRING, NSPRED_LENGTH and the NS_* collations on `db`.
    /// The store calls this once per connection it opens.
    static func registerFunctions(on db: OpaquePointer) throws {
        let flags = SQLITE_UTF8 | deterministic
        var status = sqlite3_create_function_v2(db, "NSPRED_FOLD", 2, flags, nil, { context, _, arguments in
            guard let arguments, let text = sqliteText(arguments[0]) else {
                sqlite3_result_null(context)
                return
            }
            let options = ComparisonOptions(rawValue: Int(sqlite3_value_int64(arguments[1])))
            resultText(context, StringMatching.fold(text, options))
        }, nil, nil, nil)
        guard status == SQLITE_OK else { throw registrationError(db, "NSPRED_FOLD") }

        status = sqlite3_create_function_v2(db, "NSPRED_STRING", 4, flags, nil, { context, _, arguments in
            guard let arguments, let subject = sqliteText(arguments[2]), let pattern = sqliteText(arguments[3]) else {
                sqlite3_result_int(context, 0)
                return
            }
            let code = Int(sqlite3_value_int64(arguments[0]))
            guard SQLCompiler.stringOperators.indices.contains(code - 1) else {
                sqlite3_result_error(context, "NSPRED_STRING: unknown operator", -1)
                return
            }
            let options = ComparisonOptions(rawValue: Int(sqlite3_value_int64(arguments[1])))
            do {
                let op = SQLCompiler.stringOperators[code - 1]
                sqlite3_result_int(context, try StringMatching.matches(op, options, subject, pattern) ? 1 : 0)
            } catch {
                sqlite3_result_error(context, (error as NSError).localizedDescription, -1)
            }
        }, nil, nil, nil)
        guard status == SQLITE_OK else { throw registrationError(db, "NSPRED_STRING") }

        status = sqlite3_create_function_v2(db, "NSPRED_LENGTH", 1, flags, nil, { context, _, arguments in
            guard let arguments, let text = sqliteText(arguments[0]) else {
                sqlite3_result_null(context)
                return
            }
            // NSString length: UTF-16 code units, not SQLite's characters.
            sqlite3_result_int64(context, Int64(text.utf16.count))
        }, nil, nil, nil)
        guard status == SQLITE_OK else { throw registrationError(db, "NSPRED_LENGTH") }

        for selector in SortSelector.allCases {
            guard let name = selector.collationName else { continue }
            let box = Unmanaged.passRetained(CollationBox(selector))
            status = sqlite3_create_collation_v2(db, name, SQLITE_UTF8, box.toOpaque(), { context, leftLength, left, rightLength, right in
                guard let context else { return 0 }
                let selector = Unmanaged<CollationBox>.fromOpaque(context).takeUnretainedValue().selector
                let lhs = decodeUTF8(left, leftLength)
                let rhs = decodeUTF8(right, rightLength)
                return Int32(selector.compare(lhs, rhs).rawValue)
            }, { context in
                if let context { Unmanaged<CollationBox>.fromOpaque(context).release() }
            })
            guard status == SQLITE_OK else { throw registrationError(db, name) }
        }
    }

    private static func registrationError(_ db: OpaquePointer, _ name: String) -> NSError {
        PredicateError.semantic("cannot register SQLite function \(name): \(String(cString: sqlite3_errmsg(db)))")
    }
}

private final class CollationBox {
    let selector: SortSelector
    init(_ selector: SortSelector) { self.selector = selector }
}

/// The text of a TEXT argument (by byte count, so NUL bytes survive); nil for other types.
private func sqliteText(_ value: OpaquePointer?) -> String? {
    guard sqlite3_value_type(value) == SQLITE_TEXT, let bytes = sqlite3_value_text(value) else { return nil }
    let count = Int(sqlite3_value_bytes(value))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
}

private func decodeUTF8(_ pointer: UnsafeRawPointer?, _ length: Int32) -> String {
    guard let pointer, length > 0 else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: pointer, count: Int(length)), as: UTF8.self)
}

private func resultText(_ context: OpaquePointer?, _ text: String) {
    var bytes = Array(text.utf8)
    let count = bytes.count
    if bytes.isEmpty { bytes = [0] }
    bytes.withUnsafeBufferPointer { buffer in
        buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(buffer.count, 1)) {
            sqlite3_result_text64(context, $0, sqlite3_uint64(count), transient, UInt8(SQLITE_UTF8))
        }
    }
}
