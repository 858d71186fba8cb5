/// Prints a predicate tree as a format string that parses back to the same tree.
///
/// The form is canonical: `==` rather than `=`, double-quoted strings, compound terms
/// parenthesised, `CAST(...)` for dates, decimals, UUIDs, URLs and data. Objects (managed
/// objects, IDs) have no literal form; they print as `<object description>`, which does not
/// parse: such a predicate is meant for logs.
enum PredicateFormatter {
    static func format(_ node: PredicateNode) -> String {
        switch node {
        case .constant(let value): return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .and(let terms): return terms.isEmpty ? "TRUEPREDICATE" : terms.map(compoundTerm).joined(separator: " AND ")
        case .or(let terms): return terms.isEmpty ? "FALSEPREDICATE" : terms.map(compoundTerm).joined(separator: " OR ")
        case .not(let term): return "NOT " + compoundTerm(term)
        case .block: return "BLOCKPREDICATE"
        case .comparison(let comparison):
            var text = comparison.modifier == .direct ? "" : comparison.modifier.rawValue + " "
            text += format(comparison.lhs) + " " + comparison.op.rawValue + comparison.options.formatSuffix + " "
            return text + format(comparison.rhs)
        }
    }

    private static func compoundTerm(_ node: PredicateNode) -> String {
        switch node {
        case .and, .or, .not: "(" + format(node) + ")"
        default: format(node)
        }
    }

    static func format(_ expression: ExpressionNode) -> String {
        switch expression {
        case .constant(let value): return format(value)
        case .evaluatedObject: return "SELF"
        case .variable(let name): return "$" + name
        case .keyPath(let base, let components):
            let path = components.map(formatKey).joined(separator: ".")
            switch base {
            case .evaluatedObject: return path
            case .variable, .subquery: return format(base) + "." + path
            default: return "(" + format(base) + ")." + path
            }
        case .aggregate(let items): return "{" + items.map(format).joined(separator: ", ") + "}"
        case .function(let selector, let arguments):
            guard let function = ExpressionFunction(selector: selector) else {
                let receiver = arguments.first.map(format) ?? "nil"
                return "FUNCTION(" + ([receiver, "\"" + escape(selector) + "\""] + arguments.dropFirst().map(format)).joined(separator: ", ") + ")"
            }
            if let symbol = function.infixSymbol, arguments.count == 2 {
                return "(" + format(arguments[0]) + " " + symbol + " " + format(arguments[1]) + ")"
            }
            return function.formatName + "(" + arguments.map(format).joined(separator: ", ") + ")"
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(" + format(collection) + ", $" + variable + ", " + format(predicate) + ")"
        case .fetch(let request, let context, let countOnly):
            return "FETCH(" + format(request) + ", " + format(context) + ", " + (countOnly ? "YES" : "NO") + ")"
        }
    }

    /// Keys that collide with reserved words are escaped with `#`, as Apple's grammar allows.
    private static func formatKey(_ key: String) -> String {
        PredicateTokenizer.keywords.contains(key.uppercased()) ? "#" + key : key
    }

    static func format(_ value: ConstantValue) -> String {
        switch value {
        case .null: return "nil"
        case .bool(let flag): return flag ? "YES" : "NO"
        case .int(let number): return String(number)
        case .double(let number):
            return number.isFinite ? "\(number)" : "CAST(\"\(number)\", \"NSNumber\")"
        case .decimal(let number): return "CAST(\"\(number)\", \"NSDecimalNumber\")"
        case .string(let text): return "\"" + escape(text) + "\""
        case .date(let date): return "CAST(\(date.timeIntervalSinceReferenceDate), \"NSDate\")"
        case .data(let data): return "CAST(\"\(data.base64EncodedString())\", \"NSData\")"
        case .uuid(let uuid): return "CAST(\"\(uuid.uuidString)\", \"NSUUID\")"
        case .url(let url): return "CAST(\"\(escape(url.absoluteString))\", \"NSURL\")"
        case .object(let opaque): return "<\(opaque.value)>"
        }
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case "\0": escaped += "\\0"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    escaped += String(format: "\\u%04X", scalar.value)
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return escaped
    }
}

extension ConstantValue {
    /// The value `CAST(value, "type")` denotes, or nil if it makes no sense.
    static func cast(_ value: ConstantValue, to typeName: String) -> ConstantValue? {
        switch (typeName, value) {
        case ("NSDate", .int(let seconds)): .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
        case ("NSDate", .double(let seconds)): .date(Date(timeIntervalSinceReferenceDate: seconds))
        case ("NSNumber", .string(let text)): Int64(text).map { .int($0) } ?? Double(text).map { .double($0) }
        case ("NSNumber", .int), ("NSNumber", .double), ("NSNumber", .bool): value
        case ("NSDecimalNumber", .string(let text)): Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")).map { .decimal($0) }
        case ("NSDecimalNumber", .int(let number)): .decimal(Decimal(number))
        case ("NSString", .string): value
        case ("NSString", .int(let number)): .string(String(number))
        case ("NSUUID", .string(let text)): UUID(uuidString: text).map { .uuid($0) }
        case ("NSURL", .string(let text)): URL(string: text).map { .url($0) }
        case ("NSData", .string(let text)): Data(base64Encoded: text).map { .data($0) }
        default: nil
        }
    }
}
