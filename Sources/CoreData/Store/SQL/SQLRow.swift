/// One result row, read column by column: SQLite's statement in place, or the values a
/// PostgreSQL connection received. Decoding (`SQLValueCoding`, `SQLRowDecoder`) is written once
/// against this and specialised for each.
protocol SQLRow {
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
enum SQLStorageClass {
    case null, integer, real, text, blob
}

/// A row already read into values (a PostgreSQL result).
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

    func int64(at column: Int32) -> Int64 {
        switch values[Int(column)] {
        case .integer(let number): number
        case .real(let number): Int64(number)
        case .text(let text): Int64(text) ?? 0
        default: 0
        }
    }

    func double(at column: Int32) -> Double {
        switch values[Int(column)] {
        case .integer(let number): Double(number)
        case .real(let number): number
        case .text(let text): Double(text) ?? 0
        default: 0
        }
    }

    func text(at column: Int32) -> String {
        switch values[Int(column)] {
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .text(let text): text
        case .blob(let bytes): String(decoding: bytes, as: UTF8.self)
        case .null: ""
        }
    }

    func storageClass(at column: Int32) -> SQLStorageClass {
        switch values[Int(column)] {
        case .null: .null
        case .integer: .integer
        case .real: .real
        case .text: .text
        case .blob: .blob
        }
    }
}
