/// Swift `#Predicate`s over managed object subclasses, translated to our predicate tree so they
/// run in SQLite and in memory alike.
///
/// Foundation's `Predicate<T>` is a tree of `PredicateExpressions` values; each supported type
/// conforms to `TranslatablePredicateExpression` below and turns itself into a `PredicateNode`
/// (in Boolean position) or an `ExpressionNode` (in value position). Key paths are named through
/// `NSManagedObject.propertyName(for:)`, so only key paths to modelled (`@Managed`) properties
/// translate. Anything else throws an error naming the expression type.
extension NSPredicate {
    /// A predicate translated from a Swift `#Predicate` into the same tree a format string gives,
    /// so it runs in SQL like any other.
    ///
    /// For example:
    /// ```swift
    /// request.predicate = NSPredicate(#Predicate<Dog> { $0.name == "Rex" })
    /// ```
    /// Like a malformed format string, an untranslatable predicate does not trap: the predicate
    /// carries the error, and the fetch that uses it throws. Call `NSPredicate.parse(_:)` to find
    /// out at once.
    public convenience init<Root: NSManagedObject>(_ predicate: Predicate<Root>) {
        let content: Result<PredicateNode, NSError>
        do {
            content = .success(try FoundationPredicateTranslator.translate(predicate))
        } catch {
            content = .failure(error as NSError)
        }
        self.init(carrying: content)
    }

    /// Translates `predicate` now, throwing a 134060 (`NSCoreDataError`) error naming the first
    /// expression or key path that has no counterpart in a Core Data predicate.
    ///
    /// For example:
    /// ```swift
    /// let named = try NSPredicate.parse(#Predicate<Dog> { $0.name != nil })
    /// ```
    public static func parse<Root: NSManagedObject>(_ predicate: Predicate<Root>) throws -> NSPredicate {
        NSPredicate(tree: try FoundationPredicateTranslator.translate(predicate))
    }

    /// `parse(_:)` for a root that is not a managed object but whose key paths are named in
    /// `ForeignKeyPathNaming` (SwiftData's `@Model` classes).
    package static func parseForeign<Root: AnyObject>(_ predicate: Predicate<Root>) throws -> NSPredicate {
        NSPredicate(tree: try FoundationPredicateTranslator.translate(predicate))
    }
}

/// Walks a `Predicate`'s expression, keeping what each closure variable stands for.
struct FoundationPredicateTranslator {
    /// The closure's own argument is the evaluated object; the variable an optional chain
    /// (`$0.dog?.name`) introduces stands for the unwrapped value.
    var variables: [PredicateExpressions.VariableID: ExpressionNode] = [:]

    static func translate<Root>(_ predicate: Predicate<Root>) throws -> PredicateNode {
        var translator = FoundationPredicateTranslator()
        translator.variables[predicate.variable.key] = .evaluatedObject
        return try translator.predicate(predicate.expression)
    }

    static func unsupported(_ expression: Any) -> NSError {
        PredicateError.semantic("#Predicate expression \(type(of: expression)) has no Core Data equivalent")
    }

    private func translatable(_ expression: Any) throws -> any TranslatablePredicateExpression {
        guard let translatable = expression as? any TranslatablePredicateExpression else {
            throw Self.unsupported(expression)
        }
        return translatable
    }

    /// `expression` in Boolean position.
    func predicate(_ expression: Any) throws -> PredicateNode {
        try translatable(expression).predicateNode(self)
    }

    /// `expression` in value position: one or more guarded alternatives (see `Alternative`).
    func values(_ expression: Any) throws -> [Alternative] {
        try translatable(expression).alternatives(self)
    }

    /// A predicate true where `expression`'s value is nil.
    func isNil(_ expression: Any) throws -> PredicateNode {
        try translatable(expression).nilCondition(self)
    }

    /// `lhs op rhs` over every pair of alternatives.
    func compare(_ lhs: Any, _ op: ComparisonOperator, _ rhs: Any) throws -> PredicateNode {
        try compare(values(lhs), op, values(rhs))
    }

    func compare(_ lhs: [Alternative], _ op: ComparisonOperator, _ rhs: [Alternative]) -> PredicateNode {
        var terms: [PredicateNode] = []
        for left in lhs {
            for right in rhs {
                let comparison = PredicateNode.comparison(ComparisonNode(left.node, op, right.node))
                terms.append(.conjunction(left.conditions + right.conditions + [comparison]))
            }
        }
        return .disjunction(terms)
    }

    /// A translator in which `variable` stands for `node`.
    func binding(_ variable: PredicateExpressions.VariableID, to node: ExpressionNode) -> FoundationPredicateTranslator {
        var copy = self
        copy.variables[variable] = node
        return copy
    }
}

/// One possible value of an operand, valid where all `conditions` hold. A plain operand has a
/// single unconditional alternative; `a ?? b` has two: `a` where `a != nil`, `b` where `a == nil`.
struct Alternative {
    var conditions: [PredicateNode]
    var node: ExpressionNode

    init(_ node: ExpressionNode, conditions: [PredicateNode] = []) {
        self.node = node
        self.conditions = conditions
    }
}

extension PredicateNode {
    /// `and` of `terms`, without the wrapper for a single term.
    /// Drops `TRUEPREDICATE` terms and collapses to `FALSEPREDICATE` if any term is false.
    static func conjunction(_ terms: [PredicateNode]) -> PredicateNode {
        let flat = terms.flatMap { term -> [PredicateNode] in
            if case .and(let inner) = term { return inner }
            return term == .constant(true) ? [] : [term]
        }
        if flat.contains(.constant(false)) { return .constant(false) }
        return flat.isEmpty ? .constant(true) : flat.count == 1 ? flat[0] : .and(flat)
    }

    /// `or` of `terms`, simplified the same way.
    static func disjunction(_ terms: [PredicateNode]) -> PredicateNode {
        let flat = terms.flatMap { term -> [PredicateNode] in
            if case .or(let inner) = term { return inner }
            return term == .constant(false) ? [] : [term]
        }
        if flat.contains(.constant(true)) { return .constant(true) }
        return flat.isEmpty ? .constant(false) : flat.count == 1 ? flat[0] : .or(flat)
    }
}

/// A `PredicateExpressions` type we can translate. Value expressions implement `alternatives`;
/// Boolean ones `predicateNode`. A value in Boolean position means `value == YES`.
protocol TranslatablePredicateExpression {
    func alternatives(_ translator: FoundationPredicateTranslator) throws -> [Alternative]
    func predicateNode(_ translator: FoundationPredicateTranslator) throws -> PredicateNode
    func nilCondition(_ translator: FoundationPredicateTranslator) throws -> PredicateNode
}

extension TranslatablePredicateExpression {
    func alternatives(_ translator: FoundationPredicateTranslator) throws -> [Alternative] {
        throw FoundationPredicateTranslator.unsupported(self)
    }

    func predicateNode(_ translator: FoundationPredicateTranslator) throws -> PredicateNode {
        translator.compare(try alternatives(translator), .equal, [Alternative(.constant(.bool(true)))])
    }

    func nilCondition(_ translator: FoundationPredicateTranslator) throws -> PredicateNode {
        translator.compare(try alternatives(translator), .equal, [Alternative(.constant(.null))])
    }
}

/// An expression that is always a Boolean (never nil and never a value operand).
protocol BooleanPredicateExpression: TranslatablePredicateExpression {}

extension BooleanPredicateExpression {
    func nilCondition(_ translator: FoundationPredicateTranslator) throws -> PredicateNode {
        .constant(false)
    }
}

// MARK: - Operands

extension PredicateExpressions.Variable: TranslatablePredicateExpression {
    func alternatives(_ translator: FoundationPredicateTranslator) throws -> [Alternative] {
        guard let node = translator.variables[key] else { throw FoundationPredicateTranslator.unsupported(self) }
        return [Alternative(node)]
    }
}

extension PredicateExpressions.KeyPath: TranslatablePredicateExpression {
    func alternatives(_ translator: FoundationPredicateTranslator) throws -> [Alternative] {
        guard let name = NSManagedObject.propertyName(for: keyPath) else {
            throw PredicateError.semantic("#Predicate key path \(keyPath) does not name a modelled property of a managed object")
        }
        // A model's identity (`persistentModelID`) is the object itself.
        if name == ForeignKeyPathNaming.identity { return try translator.values(root) }
        let components = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        return try translator.values(root).map { base in
            switch base.node {
            case .evaluatedObject, .variable:
                return Alternative(.keyPath(base: base.node, components: components), conditions: base.conditions)
            case .keyPath(let root, let prefix):
                return Alternative(.keyPath(base: root, components: prefix + components), conditions: base.conditions)
            default:
                throw PredicateError.semantic("#Predicate key path \(keyPath) applied to a value that is not a managed object")
            }
        }
    }
}

extension PredicateExpressions.Value: TranslatablePredicateExpression {
    /// A SwiftData identifier compares as its object ID (`ForeignModelObjects`).
    func alternatives(_ translator: FoundationPredicateTranslator) throws -> [Alternative] {
        [Alternative(try PredicateParser.expression(forArgument: ForeignModelObjects.coreDataValue(for: value) ?? value, depth: 0))]
    }

    func predicateNode(_ translator: FoundationPredicateTranslator) throws -> PredicateNode {
        if let flag = value as? Bool { return .constant(flag) }
        return translator.compare(try alternatives(translator), .equal, [Alternative(.constant(.bool(true)))])
    }
}

extension PredicateExpressions.NilLiteral: TranslatablePredicateExpression {
    func alternatives(_ translator: FoundationPredicateTranslator) throws -> [Alternative] {
        [Alternative(.constant(.null))]
    }
}

/// `x!`: a nil `x` simply fails the comparison (Foundation's evaluation would throw).
extension PredicateExpressions.ForcedUnwrap: TranslatablePredicateExpression {
    func alternatives(_ translator: FoundationPredicateTranslator) throws -> [Alternative] {
        try translator.values(inner)
    }

    func predicateNode(_ translator: FoundationPredicateTranslator) throws -> PredicateNode {
        try translator.predicate(inner)
    }
}

/// `x?.rest`: the variable of `rest` stands for `x`. A key path through a nil to-one reads as
/// nil in SQL and in memory, which is what the optional chain yields.
extension PredicateExpressions.OptionalFlatMap: TranslatablePredicateExpression {
    func alternatives(_ translator: FoundationPredicateTranslator) throws -> [Alternative] {
        try translator.values(wrapped).flatMap { base in
            // A nil alternative of `x` (a failed `as?`) leaves the chain nil.
            if base.node == .constant(.null) { return [base] }
            return try translator.binding(variable.key, to: base.node).values(transform).map {
                Alternative($0.node, conditions: base.conditions + $0.conditions)
            }
        }
    }

    /// `x?.test` is true where `x` is not nil and the test holds.
    func predicateNode(_ translator: FoundationPredicateTranslator) throws -> PredicateNode {
        .disjunction(try translator.values(wrapped).map { base in
            if base.node == .constant(.null) { return .constant(false) }
            let notNil = PredicateNode.comparison(ComparisonNode(base.node, .notEqual, .constant(.null)))
            let test = try translator.binding(variable.key, to: base.node).predicate(transform)
            return .conjunction(base.conditions + [notNil, test])
        })
    }

    func nilCondition(_ translator: FoundationPredicateTranslator) throws -> PredicateNode {
        .disjunction(try translator.values(wrapped).map { base in
            if base.node == .constant(.null) { return .conjunction(base.conditions) }
            let isNil = PredicateNode.comparison(ComparisonNode(base.node, .equal, .constant(.null)))
            let innerNil = try translator.binding(variable.key, to: base.node).isNil(transform)
            return .conjunction(base.conditions + [.disjunction([isNil, innerNil])])
        })
    }
}

/// `a ?? b`: `a` where it is not nil, `b` elsewhere.
extension PredicateExpressions.NilCoalesce: TranslatablePredicateExpression {
    func alternatives(_ translator: FoundationPredicateTranslator) throws -> [Alternative] {
        let present = try translator.values(lhs).map {
            Alternative($0.node, conditions: $0.conditions + [.comparison(ComparisonNode($0.node, .notEqual, .constant(.null)))])
        }
        let absent = try translator.isNil(lhs)
        let fallback = try translator.values(rhs).map { Alternative($0.node, conditions: [absent] + $0.conditions) }
        return present + fallback
    }

    func predicateNode(_ translator: FoundationPredicateTranslator) throws -> PredicateNode {
        .disjunction([
            try translator.predicate(lhs),
            .conjunction([try translator.isNil(lhs), try translator.predicate(rhs)]),
        ])
    }

    func nilCondition(_ translator: FoundationPredicateTranslator) throws -> PredicateNode {
        .conjunction([try translator.isNil(lhs), try translator.isNil(rhs)])
    }
}

// MARK: - Comparisons

extension PredicateExpressions.Equal: BooleanPredicateExpression {
    func predicateNode(_ translator: FoundationPredicateTranslator) throws -> PredicateNode {
        try translator.compare(lhs, .equal, rhs)
    }
}

extension PredicateExpressions.NotEqual: BooleanPredicateExpression {
    func predicateNode(_ translator: FoundationPredicateTranslator) throws -> PredicateNode {
        try translator.compare(lhs, .notEqual, rhs)
    }
}

extension PredicateExpressions.Comparison: BooleanPredicateExpression {
    func predicateNode(_ translator: FoundationPredicateTranslator) throws -> PredicateNode {
        let ours: ComparisonOperator = switch op {
        case .lessThan: .less
        case .lessThanOrEqual: .lessOrEqual
        case .greaterThan: .greater
        case .greaterThanOrEqual: .greaterOrEqual
        }
        return try translator.compare(lhs, ours, rhs)
    }
}

/// `collection.contains(element)`: `element IN collection`.
extension PredicateExpressions.SequenceContains: BooleanPredicateExpression {
    func predicateNode(_ translator: FoundationPredicateTranslator) throws -> PredicateNode {
        try translator.compare(element, .in, sequence)
    }
}

/// `string.starts(with: prefix)`: `BEGINSWITH` (strings only: other sequences never match).
extension PredicateExpressions.SequenceStartsWith: BooleanPredicateExpression {
    func predicateNode(_ translator: FoundationPredicateTranslator) throws -> PredicateNode {
        try translator.compare(base, .beginsWith, prefix)
    }
}

/// `string.contains(other)`: `CONTAINS`, a substring test.
extension PredicateExpressions.CollectionContainsCollection: BooleanPredicateExpression {
    func predicateNode(_ translator: FoundationPredicateTranslator) throws -> PredicateNode {
        try translator.compare(base, .contains, other)
    }
}

// MARK: - Logic

extension PredicateExpressions.Conjunction: BooleanPredicateExpression {
    func predicateNode(_ translator: FoundationPredicateTranslator) throws -> PredicateNode {
        .conjunction([try translator.predicate(lhs), try translator.predicate(rhs)])
    }
}

extension PredicateExpressions.Disjunction: BooleanPredicateExpression {
    func predicateNode(_ translator: FoundationPredicateTranslator) throws -> PredicateNode {
        .disjunction([try translator.predicate(lhs), try translator.predicate(rhs)])
    }
}

extension PredicateExpressions.Negation: BooleanPredicateExpression {
    func predicateNode(_ translator: FoundationPredicateTranslator) throws -> PredicateNode {
        .not(try translator.predicate(wrapped))
    }
}

/// `$0 is Car`: the object's entity is the class's or a subclass's. Only classes that stand
/// for entities (`ForeignModelClasses`) translate.
extension PredicateExpressions.TypeCheck: BooleanPredicateExpression {
    func predicateNode(_ translator: FoundationPredicateTranslator) throws -> PredicateNode {
        .disjunction(try translator.values(input).map { base in
            .conjunction(base.conditions + [try translator.entityTest(of: base.node, is: Desired.self, in: self)])
        })
    }
}

/// `$0 as? Car`: the object where `$0 is Car` holds, nil elsewhere (two alternatives). A key
/// path after it (`($0 as? Car)?.doors == 4` on a fetch of `Vehicle`) names the subclass's
/// property, which the entity test guards: rows of other entities never reach it.
extension PredicateExpressions.ConditionalCast: TranslatablePredicateExpression {
    func alternatives(_ translator: FoundationPredicateTranslator) throws -> [Alternative] {
        try translator.values(input).flatMap { base in
            let matches = try translator.entityTest(of: base.node, is: Desired.self, in: self)
            return [
                Alternative(base.node, conditions: base.conditions + [matches]),
                Alternative(.constant(.null), conditions: base.conditions + [failure(of: base, matches: matches)]),
            ]
        }
    }

    func nilCondition(_ translator: FoundationPredicateTranslator) throws -> PredicateNode {
        .disjunction(try translator.values(input).map { base in
            let matches = try translator.entityTest(of: base.node, is: Desired.self, in: self)
            return .conjunction(base.conditions + [failure(of: base, matches: matches)])
        })
    }

    /// Where the cast of `base` is nil: `base` is nil or of another entity. The nil test comes
    /// first so that SQL, where a missing object's entity is NULL, agrees with memory.
    private func failure(of base: Alternative, matches: PredicateNode) -> PredicateNode {
        .disjunction([.comparison(ComparisonNode(base.node, .equal, .constant(.null))), .not(matches)])
    }
}

extension FoundationPredicateTranslator {
    /// True where `object`'s entity is `type`'s or one of its subentities': a comparison of its
    /// `entity` key. `expression` (the type check or cast) names the failure.
    func entityTest(of object: ExpressionNode, is type: Any.Type, in expression: Any) throws -> PredicateNode {
        guard let entities = ForeignModelClasses.entities(of: type) else { throw Self.unsupported(expression) }
        let entity: ExpressionNode = switch object {
        case .evaluatedObject, .variable: .keyPath(base: object, components: ["entity"])
        case .keyPath(let root, let prefix): .keyPath(base: root, components: prefix + ["entity"])
        default: throw Self.unsupported(expression)
        }
        return .disjunction(try entities.map { described in
            PredicateNode.comparison(ComparisonNode(entity, .equal, try PredicateParser.expression(forArgument: described, depth: 0)))
        })
    }
}
