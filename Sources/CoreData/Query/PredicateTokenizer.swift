/// One lexical unit of a predicate format string, with where it starts.
struct PredicateToken: Equatable {
    enum Kind: Equatable {
        case identifier(String)
        /// A reserved word, uppercased (`AND`, `ANY`, `BEGINSWITH`, `NIL`, ...).
        case keyword(String)
        /// `@count`, `@sum`, ... (without the `@` stripped: kept as written, lowercased).
        case collectionOperator(String)
        case string(String)
        case integer(Int64)
        case double(Double)
        /// `$NAME`.
        case variable(String)
        /// `%@`, `%K`, `%d`, ... : the conversion letter(s) after `%`.
        case argument(String)
        /// Punctuation and operators: `(`, `==`, `&&`, `[cd]` is tokenized as `[`, letters, `]`.
        case symbol(String)
        case end
    }

    var kind: Kind
    var position: Int
}

/// Splits a format string into tokens. Works on Unicode scalars so positions are stable and
/// the scan is linear.
struct PredicateTokenizer {
    static let keywords: Set<String> = [
        "AND", "OR", "NOT", "ANY", "SOME", "ALL", "NONE", "IN", "CONTAINS", "BEGINSWITH", "ENDSWITH",
        "LIKE", "MATCHES", "BETWEEN", "TRUEPREDICATE", "FALSEPREDICATE", "NIL", "NULL", "YES", "NO",
        "TRUE", "FALSE", "SELF", "SUBQUERY", "FUNCTION", "CAST",
    ]

    private let scalars: [Unicode.Scalar]
    private let format: String
    private var index = 0

    init(_ format: String) {
        self.format = format
        self.scalars = Array(format.unicodeScalars)
    }

    static func tokenize(_ format: String) throws -> [PredicateToken] {
        var tokenizer = PredicateTokenizer(format)
        var tokens: [PredicateToken] = []
        while true {
            let token = try tokenizer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func error(_ message: String, at position: Int) -> NSError {
        PredicateError.syntax(message, at: position, in: format)
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic
    }

    private static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || scalar.properties.numericType != nil
    }

    private mutating func next() throws -> PredicateToken {
        while let scalar = peek(), scalar.properties.isWhitespace { index += 1 }
        let start = index
        guard let scalar = peek() else { return PredicateToken(kind: .end, position: start) }

        if scalar == "\"" || scalar == "'" {
            return PredicateToken(kind: .string(try readString(quote: scalar)), position: start)
        }
        if ("0"..."9").contains(scalar) || (scalar == "." && peek(1).map { ("0"..."9").contains($0) } == true) {
            return PredicateToken(kind: try readNumber(), position: start)
        }
        if scalar == "$" {
            index += 1
            let name = readIdentifier()
            guard !name.isEmpty else { throw error("expected a variable name after '$'", at: start) }
            return PredicateToken(kind: .variable(name), position: start)
        }
        if scalar == "@" {
            index += 1
            let name = readIdentifier()
            guard !name.isEmpty else { throw error("expected a collection operator after '@'", at: start) }
            return PredicateToken(kind: .collectionOperator("@" + name.lowercased()), position: start)
        }
        if scalar == "%" {
            index += 1
            // Length modifiers (`l`, `ll`, `h`, `q`) are accepted and ignored: Swift arguments
            // carry their own type.
            var modifiers = 0
            while let letter = peek(), "lhq".unicodeScalars.contains(letter), modifiers < 2 {
                index += 1
                modifiers += 1
            }
            guard let letter = peek(), "@KdiuxXofegscDOU".unicodeScalars.contains(letter) else {
                throw error("expected a format specifier after '%'", at: start)
            }
            index += 1
            let conversion = String(letter)
            return PredicateToken(kind: .argument(conversion), position: start)
        }
        if scalar == "#" {
            // `#key` escapes a reserved word used as a key.
            index += 1
            let name = readIdentifier()
            guard !name.isEmpty else { throw error("expected a key after '#'", at: start) }
            return PredicateToken(kind: .identifier(name), position: start)
        }
        if Self.isIdentifierStart(scalar) {
            let word = readIdentifier()
            // `canonical:(name)`: a function named by its one-part selector, as Xcode writes
            // derivation expressions.
            if peek() == ":", peek(1) == "(" {
                index += 1
                return PredicateToken(kind: .identifier(word + ":"), position: start)
            }
            let upper = word.uppercased()
            if Self.keywords.contains(upper) { return PredicateToken(kind: .keyword(upper), position: start) }
            return PredicateToken(kind: .identifier(word), position: start)
        }
        for symbol in ["==", "!=", "<>", "<=", ">=", "=<", "=>", "&&", "||", "**"] where matches(symbol) {
            index += 2
            return PredicateToken(kind: .symbol(symbol), position: start)
        }
        if "()[]{},.=<>!+-*/".unicodeScalars.contains(scalar) {
            index += 1
            return PredicateToken(kind: .symbol(String(scalar)), position: start)
        }
        throw error("unexpected character '\(scalar.escaped(asASCII: true))'", at: start)
    }

    private func matches(_ symbol: String) -> Bool {
        for (offset, expected) in symbol.unicodeScalars.enumerated() where peek(offset) != expected { return false }
        return true
    }

    private mutating func readIdentifier() -> String {
        var name = String.UnicodeScalarView()
        if let first = peek(), Self.isIdentifierStart(first) {
            while let scalar = peek(), Self.isIdentifierPart(scalar) {
                name.append(scalar)
                index += 1
            }
        }
        return String(name)
    }

    private mutating func readString(quote: Unicode.Scalar) throws -> String {
        let start = index
        index += 1
        var text = String.UnicodeScalarView()
        while let scalar = peek() {
            index += 1
            if scalar == quote { return String(text) }
            guard scalar == "\\" else {
                text.append(scalar)
                continue
            }
            guard let escaped = peek() else { break }
            index += 1
            switch escaped {
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "0": text.append("\0")
            case "\"", "'", "\\": text.append(escaped)
            case "u":
                var hex = ""
                while hex.count < 4, let digit = peek(), digit.properties.isASCIIHexDigit {
                    hex.unicodeScalars.append(digit)
                    index += 1
                }
                guard hex.count == 4, let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) else {
                    throw error("invalid \\u escape", at: index - hex.count - 2)
                }
                text.append(decoded)
            default:
                // Kept as written, so LIKE patterns can escape their wildcards (`\*`, `\?`).
                text.append("\\")
                text.append(escaped)
            }
        }
        throw error("unterminated string", at: start)
    }

    private mutating func readNumber() throws -> PredicateToken.Kind {
        let start = index
        if peek() == "0", let radixLetter = peek(1), "xXoObB".unicodeScalars.contains(radixLetter) {
            index += 2
            let radix = radixLetter == "x" || radixLetter == "X" ? 16 : radixLetter == "o" || radixLetter == "O" ? 8 : 2
            var digits = ""
            while let scalar = peek(), scalar.properties.isASCIIHexDigit || scalar == "_" {
                digits.unicodeScalars.append(scalar)
                index += 1
            }
            guard let value = UInt64(digits, radix: radix) else { throw error("invalid number literal", at: start) }
            return value <= UInt64(Int64.max) ? .integer(Int64(value)) : .double(Double(value))
        }
        var text = ""
        var isFloat = false
        while let scalar = peek(), ("0"..."9").contains(scalar) { text.unicodeScalars.append(scalar); index += 1 }
        if peek() == ".", let after = peek(1), ("0"..."9").contains(after) {
            isFloat = true
            text += "."
            index += 1
            while let scalar = peek(), ("0"..."9").contains(scalar) { text.unicodeScalars.append(scalar); index += 1 }
        }
        if let e = peek(), e == "e" || e == "E" {
            var lookahead = 1
            if let sign = peek(1), sign == "+" || sign == "-" { lookahead = 2 }
            if let digit = peek(lookahead), ("0"..."9").contains(digit) {
                isFloat = true
                text += "e"
                if lookahead == 2, let sign = peek(1) { text.unicodeScalars.append(sign) }
                index += lookahead
                while let scalar = peek(), ("0"..."9").contains(scalar) { text.unicodeScalars.append(scalar); index += 1 }
            }
        }
        if let scalar = peek(), Self.isIdentifierStart(scalar) {
            throw error("invalid number literal", at: start)
        }
        if !isFloat, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text), value.isFinite else { throw error("invalid number literal", at: start) }
        return .double(value)
    }
}
