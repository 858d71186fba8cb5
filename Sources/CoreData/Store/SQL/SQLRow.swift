/// One result row, read column by column: SQLite's statement in place, or the cells a
/// PostgreSQL connection received (the driver's row, `CoreDataPostgreSQL`, hence `package`).
/// Decoding (`SQLValueCoding`, `SQLRowDecoder`) is written once against this and specialised for
/// each.
package protocol SQLRow {
    func value(at column: Int32) -> SQLValue
    func int64(at column: Int32) -> Int64
    func double(at column: Int32) -> Double
    /// The column as text; numbers as the database prints them (exact, for decimals).
    func text(at column: Int32) -> String
    func storageClass(at column: Int32) -> SQLStorageClass
    var columnCount: Int32 { get }
}

extension SQLRow {
    func isNull(at column: Int32) -> Bool { storageClass(at: column) == .null }
}

/// What a column of a row holds, whatever type the table declared.
package enum SQLStorageClass {
    case null, integer, real, text, blob
}

/// A row already read into values: a row kept after its statement moved on (rows ordered in
/// Swift, `SwiftOrdering`).
struct SQLValueRow: SQLRow {
    let values: [SQLValue]

    init(values: [SQLValue]) {
        self.values = values
    }

    /// The values of another session's row, read out before that row moves on.
    init(copying row: some SQLRow) {
        values = (0..<row.columnCount).map(row.value(at:))
    }

    var columnCount: Int32 { Int32(values.count) }

    func value(at column: Int32) -> SQLValue { values[Int(column)] }

    func int64(at column: Int32) -> Int64 { values[Int(column)].int64Value }

    func double(at column: Int32) -> Double { values[Int(column)].doubleValue }

    func text(at column: Int32) -> String { values[Int(column)].textValue }

    func storageClass(at column: Int32) -> SQLStorageClass { values[Int(column)].storageClass }
}
