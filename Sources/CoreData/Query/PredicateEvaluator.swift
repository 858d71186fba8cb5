/// An expression's value in memory: one value, or the members a to-many key path, an
/// aggregate or a SUBQUERY produced.
enum EvaluatedValue {
    case scalar(ConstantValue)
    case collection([ConstantValue])

    /// A single value is a collection of one, as `ANY` and aggregate functions see it.
    var members: [ConstantValue] {
        switch self {
        case .scalar(let value): [value]
        case .collection(let values): values
        }
    }
}

/// Evaluates a `PredicateNode` against managed objects, dictionaries or plain values, with the
/// semantics of `ValueComparison` and `StringMatching` that the SQL compiler also follows.
///
/// For example:
/// ```swift
/// let evaluator = PredicateEvaluator(try predicate.parsedTree())
/// let matches = try evaluator.evaluate(["name": "Ann"])
/// ```
struct PredicateEvaluator {
    let predicate: PredicateNode

    init(_ predicate: PredicateNode) {
        self.predicate = predicate
    }

    /// Throws for predicates that cannot apply to `object` (an unknown key of a string, a
    /// to-many key compared as one value, an unbound variable, an invalid regular expression).
    func evaluate(_ object: Any?, variables: [String: Any] = [:]) throws -> Bool {
        var context = Context(object: object, variables: variables)
        return try Self.evaluate(predicate, &context)
    }

    fileprivate struct Context {
        var object: Any?
        var variables: [String: Any]
    }

    private static func evaluate(_ node: PredicateNode, _ context: inout Context) throws -> Bool {
        switch node {
        case .constant(let value): return value
        case .and(let terms):
            for term in terms where !(try evaluate(term, &context)) { return false }
            return true
        case .or(let terms):
            for term in terms where try evaluate(term, &context) { return true }
            return false
        case .not(let term): return !(try evaluate(term, &context))
        case .block(let opaque):
            guard let predicate = opaque.value as? NSPredicate else { return false }
            return predicate.evaluate(with: context.object, substitutionVariables: context.variables)
        case .comparison(let comparison): return try evaluate(comparison, &context)
        }
    }

    private static func evaluate(_ comparison: ComparisonNode, _ context: inout Context) throws -> Bool {
        let lhs = try value(of: comparison.lhs, &context)
        let rhs = try value(of: comparison.rhs, &context)
        let literalList = comparison.isMembershipInLiteralList
        switch comparison.modifier {
        case .direct:
            return try compare(lhs, comparison.op, rhs, comparison.options, literalList: literalList)
        case .any:
            for member in lhs.members where try compare(.scalar(member), comparison.op, rhs, comparison.options, literalList: literalList) { return true }
            return false
        case .all:
            for member in lhs.members where !(try compare(.scalar(member), comparison.op, rhs, comparison.options, literalList: literalList)) { return false }
            return true
        case .none:
            for member in lhs.members where try compare(.scalar(member), comparison.op, rhs, comparison.options, literalList: literalList) { return false }
            return true
        }
    }

    /// One comparison. A collection on the left is allowed only for `CONTAINS` (membership);
    /// on the right only for `IN` and `BETWEEN`. `literalList`: the collection was written as
    /// `{…}`, whose numbers a string matches by their text (`ValueComparison.isListMember`).
    static func compare(_ lhs: EvaluatedValue, _ op: ComparisonOperator, _ rhs: EvaluatedValue,
                        _ options: ComparisonOptions, literalList: Bool = false) throws -> Bool {
        let isMember = { (value: ConstantValue, member: ConstantValue) in
            literalList ? ValueComparison.isListMember(value, member, options: options) : ValueComparison.equal(value, member, options: options)
        }
        switch (op, lhs, rhs) {
        case (.in, .scalar(let value), .collection(let members)):
            return members.contains { isMember(value, $0) }
        case (.in, .scalar, .scalar(.null)):
            return false
        case (.in, .scalar(let value), .scalar(.string(let text))):
            // `"ab" IN "cabd"`: Apple treats a string on the right as substring search.
            guard case .string(let needle) = value else { return false }
            return try StringMatching.matches(.contains, options, text, needle)
        case (.contains, .collection(let members), .scalar(let value)):
            return members.contains { isMember(value, $0) }
        case (.between, .scalar(let value), .collection(let bounds)) where bounds.count == 2:
            guard let low = ValueComparison.compare(value, bounds[0], options: options),
                  let high = ValueComparison.compare(value, bounds[1], options: options) else { return false }
            return low != .orderedAscending && high != .orderedDescending
        case (_, .scalar(let left), .scalar(let right)):
            return try compareScalars(left, op, right, options)
        default:
            throw PredicateError.semantic("\(op.rawValue): a to-many key or collection is not allowed here")
        }
    }

    static func compareScalars(_ lhs: ConstantValue, _ op: ComparisonOperator, _ rhs: ConstantValue, _ options: ComparisonOptions) throws -> Bool {
        switch op {
        case .equal: return ValueComparison.equal(lhs, rhs, options: options)
        case .notEqual: return !ValueComparison.equal(lhs, rhs, options: options)
        case .less: return ValueComparison.compare(lhs, rhs, options: options) == .orderedAscending
        case .lessOrEqual:
            guard let order = ValueComparison.compare(lhs, rhs, options: options) else { return false }
            return order != .orderedDescending
        case .greater: return ValueComparison.compare(lhs, rhs, options: options) == .orderedDescending
        case .greaterOrEqual:
            guard let order = ValueComparison.compare(lhs, rhs, options: options) else { return false }
            return order != .orderedAscending
        case .contains, .beginsWith, .endsWith, .like, .matches:
            guard case .string(let subject) = lhs, case .string(let pattern) = rhs else { return false }
            return try StringMatching.matches(op, options, subject, pattern)
        case .in:
            throw PredicateError.semantic("IN needs a collection on its right")
        case .between:
            throw PredicateError.semantic("BETWEEN needs {lower, upper} on its right")
        }
    }

    // MARK: Expressions

    private static func value(of expression: ExpressionNode, _ context: inout Context) throws -> EvaluatedValue {
        switch expression {
        case .constant(let value): return .scalar(value)
        case .aggregate(let items):
            return .collection(try items.flatMap { try value(of: $0, &context).members })
        case .function(let selector, let arguments):
            guard let function = ExpressionFunction(selector: selector) else {
                return constantValues(of: try methodCall(selector, arguments, &context))
            }
            return try function.apply(arguments.map { try value(of: $0, &context) })
        default:
            return constantValues(of: try rawValue(of: expression, &context))
        }
    }

    /// Values as read from objects (managed objects stay objects) before they become constants.
    private static func rawValue(of expression: ExpressionNode, _ context: inout Context) throws -> KeyPathReader.Value {
        switch expression {
        case .evaluatedObject:
            return KeyPathReader.Value(context.object)
        case .variable(let name):
            guard let bound = context.variables[name] else {
                throw PredicateError.semantic("variable $\(name) has no value")
            }
            return KeyPathReader.Value(bound)
        case .keyPath(let base, let components):
            return try KeyPathReader.follow(components, from: rawValue(of: base, &context))
        case .subquery(let collection, let variable, let predicate):
            let members = try rawValue(of: collection, &context).members
            let saved = context.variables[variable]
            defer { context.variables[variable] = saved }
            var matching: [Any?] = []
            for member in members {
                context.variables[variable] = member ?? NSNull()
                if try evaluate(predicate, &context) { matching.append(member) }
            }
            return .many(matching)
        case .fetch(let request, let contextNode, let countOnly):
            guard case .single(let fetch as any ExpressionFetchRequest) = try rawValue(of: request, &context) else {
                throw PredicateError.semantic("FETCH needs a fetch request as its first argument")
            }
            guard case .single(let fetchContext) = try rawValue(of: contextNode, &context) else {
                throw PredicateError.semantic("FETCH needs a managed object context as its second argument")
            }
            return KeyPathReader.Value(try fetch.expressionResults(in: fetchContext, countOnly: countOnly))
        default:
            switch try value(of: expression, &context) {
            case .scalar(let value): return .single(value.anyValue)
            case .collection(let values): return .many(values.map(\.anyValue))
            }
        }
    }

    /// `FUNCTION(receiver, "selector", …)`: the parser keeps the receiver as the first argument.
    /// Receiver and arguments are read raw, so managed objects reach the method as objects.
    private static func methodCall(_ selector: String, _ arguments: [ExpressionNode], _ context: inout Context) throws -> KeyPathReader.Value {
        guard !arguments.isEmpty else { throw PredicateError.semantic("unknown function \(selector)") }
        let raw = try arguments.map { argument -> Any? in
            switch try rawValue(of: argument, &context) {
            case .single(let value): value
            case .many(let values): values
            }
        }
        return KeyPathReader.Value(try ExpressionMethodCall.perform(selector, on: raw[0], arguments: Array(raw.dropFirst())))
    }

    private static func constantValues(of traversal: KeyPathReader.Value) -> EvaluatedValue {
        switch traversal {
        case .single(let raw): .scalar(ConstantValue(any: raw))
        case .many(let raws): .collection(raws.map { ConstantValue(any: $0) })
        }
    }
}

extension PredicateEvaluator {
    /// An expression's value in memory, as Foundation types: a single value, or an array for
    /// a collection.
    static func evaluate(_ expression: ExpressionNode, _ object: Any?, variables: [String: Any] = [:]) throws -> Any? {
        var context = Context(object: object, variables: variables)
        switch try value(of: expression, &context) {
        case .scalar(let value): return value.anyValue
        case .collection(let values): return values.map(\.anyValue)
        }
    }
}
