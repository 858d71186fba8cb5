/// What `==`, `<` and sorting mean for two values. The SQL compiler emits SQL with exactly these
/// semantics, and `PredicateEvaluator` calls these functions, so both paths agree:
///
/// - `nil == nil` is true; `nil == x` false, `nil != x` true; ordering against nil is false.
/// - Values of different kinds (number, string, date, data, UUID, URL, object) are never equal
///   and never ordered: `age == "5"` is false, not a conversion.
/// - Numbers compare by value (integers exactly); strings by UTF-8 bytes (SQLite's BINARY
///   collation), or after Unicode case/diacritic folding under `[c]`/`[d]`.
/// - Objects are equal when their object IDs are.
enum ValueComparison {
    enum Kind: Int {
        case null = 0, number, date, string, url, data, uuid, object
    }

    static func kind(of value: ConstantValue) -> Kind {
        switch value {
        case .null: .null
        case .bool, .int, .double, .decimal: .number
        case .string: .string
        case .date: .date
        case .data: .data
        case .uuid: .uuid
        case .url: .url
        case .object: .object
        }
    }

    static func equal(_ lhs: ConstantValue, _ rhs: ConstantValue, options: ComparisonOptions = []) -> Bool {
        let kind = kind(of: lhs)
        guard kind == self.kind(of: rhs) else { return false }
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.string(let left), .string(let right)):
            return StringMatching.fold(left, options).utf8.elementsEqual(StringMatching.fold(right, options).utf8)
        case (.object(let left), .object(let right)): return objectsEqual(left.value, right.value)
        default: return compare(lhs, rhs, options: options) == .orderedSame
        }
    }

    /// Membership in a list written in a predicate (`code IN {1, 2}`): equality, except that a
    /// string also matches a listed number whose text it is. That is what SQLite does on Apple
    /// platforms, converting the list's numbers to text for a column of TEXT affinity, so a
    /// fetch from a SQLite store and an evaluation in memory agree.
    static func isListMember(_ value: ConstantValue, _ member: ConstantValue, options: ComparisonOptions = []) -> Bool {
        if case .string(let text) = value, kind(of: member) == .number, let number = NumericValue(member) {
            return text == number.sqliteText
        }
        return equal(value, member, options: options)
    }

    /// The order of two values of the same kind; nil when they cannot be ordered (a nil, two
    /// kinds, or objects that are not of one `Comparable` type).
    static func compare(_ lhs: ConstantValue, _ rhs: ConstantValue, options: ComparisonOptions = []) -> ComparisonResult? {
        switch (lhs, rhs) {
        case (.string(let left), .string(let right)):
            return StringMatching.compareBytes(StringMatching.fold(left, options), StringMatching.fold(right, options))
        case (.date(let left), .date(let right)):
            return order(left.timeIntervalSinceReferenceDate, right.timeIntervalSinceReferenceDate)
        case (.data(let left), .data(let right)): return StringMatching.compareBytes(left, right)
        case (.uuid(let left), .uuid(let right)):
            return withUnsafeBytes(of: left.uuid) { a in withUnsafeBytes(of: right.uuid) { b in StringMatching.compareBytes(a, b) } }
        case (.url(let left), .url(let right)): return StringMatching.compareBytes(left.absoluteString, right.absoluteString)
        case (.object(let left), .object(let right)): return comparableOrder(left.value, right.value)
        default:
            guard let left = NumericValue(lhs), let right = NumericValue(rhs) else { return nil }
            return left.compare(right)
        }
    }

    /// A total order for sorting: nil first, then by kind as SQLite orders storage classes
    /// (numbers and dates, then text, then blobs), then by value.
    static func order(_ lhs: ConstantValue, _ rhs: ConstantValue) -> ComparisonResult {
        // The common sort keys first: controllers compare keys like these millions of times.
        // One value at a time: switching over the pair `(lhs, rhs)` copied both values into
        // it (a third of the cost of comparing two short strings).
        if case .string(let left) = lhs, case .string(let right) = rhs { return StringMatching.compareBytes(left, right) }
        if case .int(let left) = lhs, case .int(let right) = rhs {
            return left < right ? .orderedAscending : left == right ? .orderedSame : .orderedDescending
        }
        let (leftRank, rightRank) = (sortRank(lhs), sortRank(rhs))
        if leftRank != rightRank { return leftRank < rightRank ? .orderedAscending : .orderedDescending }
        if let result = compare(lhs, rhs) { return result }
        // Dates and numbers share a rank because both are REAL in SQLite.
        if case .date(let date) = lhs, let number = NumericValue(rhs) { return NumericValue.double(date.timeIntervalSinceReferenceDate).compare(number) }
        if case .date(let date) = rhs, let number = NumericValue(lhs) { return number.compare(.double(date.timeIntervalSinceReferenceDate)) }
        if case .string(let left) = lhs, case .url(let right) = rhs { return StringMatching.compareBytes(left, right.absoluteString) }
        if case .url(let left) = lhs, case .string(let right) = rhs { return StringMatching.compareBytes(left.absoluteString, right) }
        return .orderedSame
    }

    private static func sortRank(_ value: ConstantValue) -> Int {
        switch kind(of: value) {
        case .null: 0
        case .number, .date: 1
        case .string, .url: 2
        case .data, .uuid: 3
        case .object: 4
        }
    }

    private static func order<T: Comparable>(_ lhs: T, _ rhs: T) -> ComparisonResult {
        lhs < rhs ? .orderedAscending : lhs > rhs ? .orderedDescending : .orderedSame
    }

    /// Two objects of one `Comparable` type by that type's order (history tokens, for a history
    /// fetch's `token > %@`); nil for other objects and for two a partial order leaves unordered.
    /// Managed objects and object IDs stay unordered, as in SQL, where only their equality exists.
    private static func comparableOrder(_ lhs: Any, _ rhs: Any) -> ComparisonResult? {
        guard objectID(of: lhs) == nil, let left = lhs as? any Comparable else { return nil }
        return comparableOrder(opening: left, rhs)
    }

    private static func comparableOrder<T: Comparable>(opening lhs: T, _ rhs: Any) -> ComparisonResult? {
        guard let right = rhs as? T else { return nil }
        if lhs < right { return .orderedAscending }
        if right < lhs { return .orderedDescending }
        return lhs == right ? .orderedSame : nil
    }

    /// Managed objects and object IDs are equal when their IDs are; anything else by `==`.
    static func objectsEqual(_ lhs: Any, _ rhs: Any) -> Bool {
        if let left = objectID(of: lhs), let right = objectID(of: rhs) { return left == right }
        // Entities match by name, as in SQL, where an entity constant stands for the entity of
        // that name in the statement's model (another load of the same model is the same entity).
        if let left = lhs as? NSEntityDescription, let right = rhs as? NSEntityDescription {
            return left === right || (left.name != nil && left.name == right.name)
        }
        return OpaqueValue(lhs) == OpaqueValue(rhs)
    }

    static func objectID(of value: Any) -> NSManagedObjectID? {
        if let object = value as? ObjectIDProviding { return object.objectID }
        return value as? NSManagedObjectID
    }
}

/// A number as SQLite sees it: a 64-bit integer or a double. Booleans are 0/1; decimals become
/// doubles, as a DECIMAL column stores them.
enum NumericValue {
    case int(Int64)
    case double(Double)

    init?(_ value: ConstantValue) {
        switch value {
        case .bool(let flag): self = .int(flag ? 1 : 0)
        case .int(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .decimal(let number):
            let double = NSDecimalNumber(decimal: number).doubleValue
            if double.rounded() == double, Swift.abs(double) < 9.2e18, Decimal(Int64(double)) == number {
                self = .int(Int64(double))
            } else {
                self = .double(double)
            }
        default: return nil
        }
    }

    /// The text SQLite converts the number to (its `%!.15g` for doubles: `1.0`, `0.5`, `1.0e+20`);
    /// nil for NaN, which SQLite binds as NULL.
    var sqliteText: String? {
        switch self {
        case .int(let number): return String(number)
        case .double(let number):
            if number.isNaN { return nil }
            if number.isInfinite { return number < 0 ? "-Inf" : "Inf" }
            var text = String(format: "%.15g", number)
            let exponent = text.firstIndex(where: { $0 == "e" }) ?? text.endIndex
            if !text[..<exponent].contains(".") { text.insert(contentsOf: ".0", at: exponent) }
            return text
        }
    }

    var double: Double {
        switch self {
        case .int(let number): Double(number)
        case .double(let number): number
        }
    }

    /// Integer against double is exact, as in SQLite (no rounding of large integers).
    func compare(_ other: NumericValue) -> ComparisonResult {
        switch (self, other) {
        case (.int(let left), .int(let right)):
            return left < right ? .orderedAscending : left > right ? .orderedDescending : .orderedSame
        case (.int(let left), .double(let right)):
            return Self.compare(left, right)
        case (.double(let left), .int(let right)):
            switch Self.compare(right, left) {
            case .orderedAscending: return .orderedDescending
            case .orderedDescending: return .orderedAscending
            case .orderedSame: return .orderedSame
            }
        case (.double(let left), .double(let right)):
            if left.isNaN || right.isNaN { return left.isNaN == right.isNaN ? .orderedSame : (left.isNaN ? .orderedAscending : .orderedDescending) }
            return left < right ? .orderedAscending : left > right ? .orderedDescending : .orderedSame
        }
    }

    private static func compare(_ integer: Int64, _ double: Double) -> ComparisonResult {
        if double.isNaN { return .orderedDescending }
        if double >= 9223372036854775808.0 { return .orderedAscending }
        if double < -9223372036854775808.0 { return .orderedDescending }
        let truncated = Int64(double.rounded(.down))
        if integer < truncated { return .orderedAscending }
        if integer > truncated { return .orderedDescending }
        return double > Double(truncated) ? .orderedAscending : .orderedSame
    }
}

/// Anything with an object ID compares as that ID: managed objects, and stand-ins for them.
protocol ObjectIDProviding {
    var objectID: NSManagedObjectID { get }
}

extension NSManagedObject: ObjectIDProviding {}
