/// Rows bound to one placeholder as a JSON array of objects, one key per column, for the
/// statements that write a table's rows at once on PostgreSQL
/// (`json_populate_recordset(NULL::table, …)` reads each key into the column of that name
/// with the column type's own input rules: text for numbers' exact forms, `\x…` for bytes).
struct SQLRecordSet {
    /// Each column's key, quoted and followed by a colon; PostgreSQL folds the unquoted names
    /// in a table's definition to lower case, and the record set's keys must match them.
    private let keys: [String]
    private var json = "["
    /// Whether a record went in: a flag, since `json.count` walks the whole text, which made
    /// a save of n rows take time in n².
    private var isEmpty = true

    init(columns: [String]) {
        keys = columns.map { "\"\($0.lowercased())\":" }
    }

    /// Appends one row: `values` in `columns`' order.
    mutating func append(_ values: [SQLValue]) {
        assert(values.count == keys.count, "a record of \(values.count) values for \(keys.count) columns")
        json += isEmpty ? "{" : ",{"
        isEmpty = false
        for (index, value) in values.enumerated() {
            if index > 0 { json += "," }
            json += keys[index]
            Self.append(value, to: &json)
        }
        json += "}"
    }

    /// The array, as the text bound to the statement's placeholder.
    var bound: SQLValue { .text(json + "]") }

    private static func append(_ value: SQLValue, to json: inout String) {
        switch value {
        case .null: json += "null"
        case .integer(let number): json += String(number)
        // Swift prints the shortest form that reads back as the same double; the non-finite
        // ones, which JSON has no number for, go as the words PostgreSQL's float8 reads.
        case .real(let number) where number.isNaN: json += "\"NaN\""
        case .real(let number) where number.isInfinite: json += number < 0 ? "\"-Infinity\"" : "\"Infinity\""
        case .real(let number): json += "\(number)"
        case .text(let text): appendString(text, to: &json)
        case .blob(let bytes):
            json += "\"\\\\x"
            for byte in bytes {
                json.unicodeScalars.append(hexDigits[Int(byte >> 4)])
                json.unicodeScalars.append(hexDigits[Int(byte & 0xF)])
            }
            json += "\""
        }
    }

    private static let hexDigits = Array("0123456789abcdef".unicodeScalars)

    /// A JSON string: quotes, backslashes and control characters escaped, the rest as is.
    private static func appendString(_ text: String, to json: inout String) {
        json += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case "\n": json += "\\n"
            case "\r": json += "\\r"
            case "\t": json += "\\t"
            case _ where scalar.value < 0x20:
                json += "\\u00"
                json.unicodeScalars.append(hexDigits[Int(scalar.value >> 4)])
                json.unicodeScalars.append(hexDigits[Int(scalar.value & 0xF)])
            default: json.unicodeScalars.append(scalar)
            }
        }
        json += "\""
    }
}
