/// The parsed form of a predicate: built once from a format string, an `NSCompoundPredicate`
/// or a `#Predicate`, then either compiled to SQL (`SQLCompiler`) or evaluated in memory
/// (`PredicateEvaluator`). Both consumers read this one tree, so they cannot disagree about
/// what the text meant.
indirect enum PredicateNode: Hashable, @unchecked Sendable {
    /// `TRUEPREDICATE` / `FALSEPREDICATE`.
    case constant(Bool)
    case and([PredicateNode])
    case or([PredicateNode])
    case not(PredicateNode)
    case comparison(ComparisonNode)
    /// A Foundation block predicate we cannot look inside: evaluable in memory only.
    case block(OpaqueValue)
}

/// `lhs op rhs`, optionally under `ANY`/`ALL`/`NONE` and with `[cd]` options.
struct ComparisonNode: Hashable, Sendable {
    var modifier: ComparisonModifier
    var op: ComparisonOperator
    var options: ComparisonOptions
    var lhs: ExpressionNode
    var rhs: ExpressionNode

    init(_ lhs: ExpressionNode, _ op: ComparisonOperator, _ rhs: ExpressionNode,
         modifier: ComparisonModifier = .direct, options: ComparisonOptions = []) {
        self.modifier = modifier
        self.op = op
        self.options = options
        self.lhs = lhs
        self.rhs = rhs
    }
}

extension ComparisonNode {
    /// `x IN {…}` or `{…} CONTAINS x`: membership in a list written in the predicate.
    var isMembershipInLiteralList: Bool {
        switch op {
        case .in: if case .aggregate = rhs { return true }
        case .contains: if case .aggregate = lhs { return true }
        default: break
        }
        return false
    }
}

enum ComparisonModifier: String, Hashable, Sendable {
    case direct = "", any = "ANY", all = "ALL", none = "NONE"
}

enum ComparisonOperator: String, Hashable, Sendable, CaseIterable {
    case equal = "==", notEqual = "!="
    case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case between = "BETWEEN", `in` = "IN", contains = "CONTAINS"
    case beginsWith = "BEGINSWITH", endsWith = "ENDSWITH", like = "LIKE", matches = "MATCHES"

    /// Operators whose meaning is defined on strings only (a non-string operand never matches).
    var isStringOperator: Bool {
        switch self {
        case .beginsWith, .endsWith, .like, .matches: true
        default: false
        }
    }
}

/// The `[c]` (case-insensitive), `[d]` (diacritic-insensitive) and `[n]` (normalized) options.
struct ComparisonOptions: OptionSet, Hashable, Sendable {
    let rawValue: Int
    static let caseInsensitive = ComparisonOptions(rawValue: 1)
    static let diacriticInsensitive = ComparisonOptions(rawValue: 2)
    static let normalized = ComparisonOptions(rawValue: 4)

    /// The bracketed suffix as written in a format string, e.g. `[cd]`.
    var formatSuffix: String {
        var letters = ""
        if contains(.caseInsensitive) { letters += "c" }
        if contains(.diacriticInsensitive) { letters += "d" }
        if contains(.normalized) { letters += "n" }
        return letters.isEmpty ? "" : "[\(letters)]"
    }
}

/// The operand side of a comparison.
indirect enum ExpressionNode: Hashable, @unchecked Sendable {
    case constant(ConstantValue)
    /// `SELF`: the object being evaluated.
    case evaluatedObject
    /// `$NAME`: a substitution variable, or the iteration variable of a `SUBQUERY`.
    case variable(String)
    /// `base.a.b`; components may be collection operators (`@count`, `@sum`, ...) or `length`.
    case keyPath(base: ExpressionNode, components: [String])
    /// `{a, b, c}`.
    case aggregate([ExpressionNode])
    /// A function by its Apple selector name, e.g. `add:to:` or `sum:`.
    case function(String, [ExpressionNode])
    /// `SUBQUERY(collection, $variable, predicate)`: the members of `collection` that match.
    case subquery(collection: ExpressionNode, variable: String, predicate: PredicateNode)
    /// `FETCH(request, context, countOnly)`: the results (or their count) of the fetch request
    /// `request` gives, run in the managed object context `context` gives, as Xcode's mapping
    /// models select their source instances.
    case fetch(request: ExpressionNode, context: ExpressionNode, countOnly: Bool)

    /// A key path from the evaluated object, split at dots.
    static func key(_ path: String) -> ExpressionNode {
        .keyPath(base: .evaluatedObject, components: path.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
    }
}

/// A literal or argument value in the tree, normalised so that equal values compare equal
/// whichever Swift or Foundation type they arrived as.
///
/// Why it stays beside `StoredValue`: a predicate's values have no attribute to say what they
/// mean. `StoredValue` keeps a boolean as an integer because its attribute knows it is one; a
/// constant must be a `bool` by itself, must be `Hashable` (as the trees that hold it are), and
/// may be a managed object, which no attribute stores. `ConstantValue(stored:for:)` converts a
/// stored value without its Foundation form.
enum ConstantValue: Hashable, @unchecked Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    case date(Date)
    case data(Data)
    case uuid(UUID)
    case url(URL)
    /// A managed object, object ID or any other value with no literal form.
    case object(OpaqueValue)
}

/// Wraps a value that has no literal form, comparing by `isEqual`/`==` where the value
/// supports it and by identity otherwise.
struct OpaqueValue: Hashable, @unchecked Sendable {
    let value: Any

    init(_ value: Any) { self.value = value }

    static func == (lhs: OpaqueValue, rhs: OpaqueValue) -> Bool {
        if let left = lhs.value as? AnyHashable, let right = rhs.value as? AnyHashable { return left == right }
        if let left = lhs.value as AnyObject?, let right = rhs.value as AnyObject? { return left === right }
        return false
    }

    func hash(into hasher: inout Hasher) {
        if let hashable = value as? AnyHashable { hasher.combine(hashable) }
    }
}
