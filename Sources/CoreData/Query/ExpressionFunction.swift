/// The functions an `NSExpression` may call, by Apple's selector name, with the name they take
/// in format strings (`sum(...)`, `now()`) and what each does in memory.
///
/// Aggregates (`sum:`, `average:` ...) skip nil members, as SQL aggregates skip NULL, so an
/// aggregate computed by SQLite and one computed here agree.
enum ExpressionFunction: String, CaseIterable {
    case sum = "sum:", count = "count:", min = "min:", max = "max:", average = "average:"
    case median = "median:", mode = "mode:", stddev = "stddev:"
    case abs = "abs:", sqrt = "sqrt:", log = "log:", ln = "ln:", exp = "exp:"
    case floor = "floor:", ceiling = "ceiling:", trunc = "trunc:"
    case now = "now"
    case add = "add:to:", subtract = "from:subtract:", multiply = "multiply:by:", divide = "divide:by:"
    case modulus = "modulus:by:", power = "raise:toPower:"
    case lowercase = "lowercase:", uppercase = "uppercase:", canonical = "canonical:"

    var selector: String { rawValue }

    /// The name used in format strings: the selector's first part.
    var formatName: String {
        String(rawValue.prefix { $0 != ":" })
    }

    init?(selector: String) { self.init(rawValue: selector) }

    init?(formatName: String) {
        let lowered = formatName.lowercased()
        guard let match = Self.allCases.first(where: { $0.formatName.lowercased() == lowered }) else {
            if lowered == "avg" { self = .average; return }
            return nil
        }
        self = match
    }

    /// The infix symbol of the arithmetic functions, as `canonicalFormat` prints them.
    var infixSymbol: String? {
        switch self {
        case .add: "+"
        case .subtract: "-"
        case .multiply: "*"
        case .divide: "/"
        case .power: "**"
        default: nil
        }
    }

    var isAggregate: Bool {
        switch self {
        case .sum, .count, .min, .max, .average, .median, .mode, .stddev: true
        default: false
        }
    }

    func accepts(argumentCount: Int) -> Bool {
        switch self {
        case .now: argumentCount == 0
        case .add, .subtract, .multiply, .divide, .modulus, .power: argumentCount == 2
        case .abs, .sqrt, .log, .ln, .exp, .floor, .ceiling, .trunc: argumentCount == 1
        case .lowercase, .uppercase, .canonical: argumentCount == 1
        default: argumentCount >= 1
        }
    }
}

extension ExpressionFunction {
    /// Applies the function to already evaluated arguments (collections flattened for aggregates).
    func apply(_ arguments: [EvaluatedValue]) throws -> EvaluatedValue {
        if isAggregate {
            let members = arguments.flatMap(\.members).filter { $0 != .null }
            return .scalar(try aggregate(members))
        }
        let values = try arguments.map { argument -> ConstantValue in
            guard case .scalar(let value) = argument else {
                throw PredicateError.semantic("\(selector) needs single values, not a collection")
            }
            return value
        }
        if self == .now { return .scalar(.date(Date())) }
        if values.contains(.null) { return .scalar(.null) }
        if let text = try textFunction(values) { return .scalar(.string(text)) }
        let numbers = try values.map { value -> NumericValue in
            guard let number = NumericValue(value) else {
                throw PredicateError.semantic("\(selector) needs numbers")
            }
            return number
        }
        return .scalar(arithmetic(numbers))
    }

    /// The string functions (derived attributes use them to keep a folded copy of a name);
    /// nil for the other functions.
    private func textFunction(_ values: [ConstantValue]) throws -> String? {
        let transform: (String) -> String
        switch self {
        case .lowercase: transform = { $0.lowercased() }
        case .uppercase: transform = { $0.uppercased() }
        case .canonical: transform = { StringMatching.fold($0, [.caseInsensitive, .diacriticInsensitive]) }
        default: return nil
        }
        guard case .string(let text) = values[0] else { throw PredicateError.semantic("\(selector) needs a string") }
        return transform(text)
    }

    private func arithmetic(_ numbers: [NumericValue]) -> ConstantValue {
        switch self {
        case .add, .subtract, .multiply:
            if case .int(let lhs) = numbers[0], case .int(let rhs) = numbers[1] {
                let (result, overflow) = switch self {
                case .add: lhs.addingReportingOverflow(rhs)
                case .subtract: lhs.subtractingReportingOverflow(rhs)
                default: lhs.multipliedReportingOverflow(by: rhs)
                }
                // SQLite switches to floating point on overflow; so do we.
                if !overflow { return .int(result) }
            }
            let (lhs, rhs) = (numbers[0].double, numbers[1].double)
            return .double(self == .add ? lhs + rhs : self == .subtract ? lhs - rhs : lhs * rhs)
        case .divide:
            return numbers[1].double == 0 ? .null : .double(numbers[0].double / numbers[1].double)
        case .modulus:
            return numbers[1].double == 0 ? .null : .double(numbers[0].double.truncatingRemainder(dividingBy: numbers[1].double))
        case .power: return .double(Foundation.pow(numbers[0].double, numbers[1].double))
        case .abs:
            if case .int(let value) = numbers[0], value != Int64.min { return .int(Swift.abs(value)) }
            return .double(Swift.abs(numbers[0].double))
        case .sqrt: return .double(numbers[0].double.squareRoot())
        case .log: return .double(Foundation.log10(numbers[0].double))
        case .ln: return .double(Foundation.log(numbers[0].double))
        case .exp: return .double(Foundation.exp(numbers[0].double))
        case .floor: return .double(numbers[0].double.rounded(.down))
        case .ceiling: return .double(numbers[0].double.rounded(.up))
        case .trunc: return .double(numbers[0].double.rounded(.towardZero))
        default: return .null
        }
    }

    private func aggregate(_ members: [ConstantValue]) throws -> ConstantValue {
        switch self {
        case .count: return .int(Int64(members.count))
        case .min, .max:
            var best: ConstantValue?
            for member in members {
                guard let current = best else { best = member; continue }
                let order = ValueComparison.order(member, current)
                if (self == .min && order == .orderedAscending) || (self == .max && order == .orderedDescending) { best = member }
            }
            return best ?? .null
        default: break
        }
        let numbers = try members.map { member -> NumericValue in
            guard let number = NumericValue(member) else { throw PredicateError.semantic("\(selector) needs numbers") }
            return number
        }
        switch self {
        case .sum:
            var total: Int64 = 0
            var exact = true
            for number in numbers {
                guard case .int(let value) = number else { exact = false; break }
                let (result, overflow) = total.addingReportingOverflow(value)
                if overflow { exact = false; break }
                total = result
            }
            return exact ? .int(total) : .double(numbers.reduce(0) { $0 + $1.double })
        case .average:
            return numbers.isEmpty ? .null : .double(numbers.reduce(0) { $0 + $1.double } / Double(numbers.count))
        case .median:
            let sorted = numbers.map(\.double).sorted()
            guard !sorted.isEmpty else { return .null }
            let middle = sorted.count / 2
            return .double(sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2)
        case .mode:
            var counts: [Double: Int] = [:]
            for number in numbers { counts[number.double, default: 0] += 1 }
            let best = counts.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }
            return best.map { .double($0.key) } ?? .null
        case .stddev:
            guard !numbers.isEmpty else { return .null }
            let values = numbers.map(\.double)
            let mean = values.reduce(0, +) / Double(values.count)
            let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
            return .double(variance.squareRoot())
        default: return .null
        }
    }
}
