/// What a prepared statement is kept under: the store's SQL text and the types of the values
/// bound to it; and the statement prepared for them.
///
/// postgres-nio prepares a runtime text (`prepare(query:)`) without parameter types, so the
/// server would infer each parameter's type from where it stands and then read our binary
/// values as that type: an int8 bound where a double precision column is compared would be read
/// as a double's bits. So the prepared text states each non-NULL value's type at its
/// placeholder (`$1::int8`), which types the parameter as the unnamed statements' Parse message
/// does; a NULL stays untyped there too. The same text with other types of values is another
/// shape. A value no placeholder uses would have no type at all, which the server refuses; the
/// placeholders are numbered afresh without it, and it is not bound.
struct PostgresNIOStatementShape: Hashable {
    let sql: String
    /// One type name per bound value; nil for NULL.
    let types: [String?]

    init(sql: String, bindings: [SQLValue]) {
        self.sql = sql
        types = bindings.map { value in
            switch value {
            case .null: nil
            case .integer: "int8"
            case .real: "float8"
            case .text: "text"
            case .blob: "bytea"
            }
        }
    }

    /// The text to prepare, and the indices of the bound values it takes, in the order of its
    /// placeholders' new numbers.
    var prepared: (sql: String, parameters: [Int]) {
        let bytes = Array(sql.utf8)
        let placeholders = Self.placeholders(in: bytes).filter { $0.number >= 1 && $0.number <= types.count }
        let parameters = Set(placeholders.map { $0.number - 1 }).sorted()
        if parameters.count == types.count && !types.contains(where: { $0 != nil }) { return (sql, parameters) }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 8 * placeholders.count)
        var copied = 0
        for placeholder in placeholders {
            result += bytes[copied..<placeholder.range.lowerBound]
            let index = placeholder.number - 1
            result += Array("$\(parameters.firstIndex(of: index)! + 1)".utf8)
            if let type = types[index] { result += Array("::\(type)".utf8) }
            copied = placeholder.range.upperBound
        }
        result += bytes[copied...]
        return (String(decoding: result, as: UTF8.self), parameters)
    }

    /// The placeholders of `bytes` (`$` and digits) outside quoted strings, quoted names and
    /// dollar-quoted bodies, with their numbers.
    private static func placeholders(in bytes: [UInt8]) -> [(range: Range<Int>, number: Int)] {
        var found: [(range: Range<Int>, number: Int)] = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                // A doubled quote inside ends this run and starts the next: the same text.
                index = bytes[(index + 1)...].firstIndex(of: bytes[index]).map { $0 + 1 } ?? bytes.count
            case UInt8(ascii: "$") where index == 0 || !isWordByte(bytes[index - 1]):
                var end = index + 1
                while end < bytes.count, isDigit(bytes[end]) { end += 1 }
                if end > index + 1, let number = Int(String(decoding: bytes[(index + 1)..<end], as: UTF8.self)) {
                    found.append((index..<end, number))
                    index = end
                } else {
                    index = endOfDollarQuote(bytes, from: index)
                }
            default:
                index += 1
            }
        }
        return found
    }

    /// The end of the dollar-quoted body opening at `start` (`$$…$$`, `$tag$…$tag$`); just
    /// past the `$` when none opens there.
    private static func endOfDollarQuote(_ bytes: [UInt8], from start: Int) -> Int {
        var tagEnd = start + 1
        while tagEnd < bytes.count, isWordByte(bytes[tagEnd]) { tagEnd += 1 }
        guard tagEnd < bytes.count, bytes[tagEnd] == UInt8(ascii: "$") else { return start + 1 }
        let tag = bytes[start...tagEnd]
        var search = tagEnd + 1
        while search + tag.count <= bytes.count {
            if bytes[search..<(search + tag.count)].elementsEqual(tag) { return search + tag.count }
            search += 1
        }
        return bytes.count
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte == UInt8(ascii: "_") || byte >= 0x80
            || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }
}
