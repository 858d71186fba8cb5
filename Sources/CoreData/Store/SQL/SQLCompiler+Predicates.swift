// Predicates to SQL conditions. Each mirrors a branch of `PredicateEvaluator` and
// `ValueComparison`; the comments say which SQL form gives the in-memory answer.

extension SQLCompiler {
    /// The string operators the registered `NSPRED_STRING` function understands; an operator's
    /// code in SQL is its position here plus one.
    static let stringOperators: [ComparisonOperator] = [.contains, .beginsWith, .endsWith, .like, .matches]

    /// The code `NSPRED_STRING` knows `op` by, 0 for none.
    static func stringOperatorCode(_ op: ComparisonOperator) -> Int64 {
        stringOperators.firstIndex(of: op).map { Int64($0 + 1) } ?? 0
    }

    func compile(_ node: PredicateNode, in scope: Scope) throws -> String {
        switch node {
        case .constant(let value): return dialect.literal(value)
        case .and(let terms):
            return terms.isEmpty ? dialect.literal(true) : "(" + (try terms.map { try compile($0, in: scope) }).joined(separator: " AND ") + ")"
        case .or(let terms):
            return terms.isEmpty ? dialect.literal(false) : "(" + (try terms.map { try compile($0, in: scope) }).joined(separator: " OR ") + ")"
        case .not(let term): return "(NOT \(try compile(term, in: scope)))"
        case .block: throw PredicateError.semantic("a block predicate cannot be used in a SQLite fetch")
        case .comparison(let comparison): return try compile(comparison, in: scope)
        }
    }

    private func compile(_ comparison: ComparisonNode, in scope: Scope) throws -> String {
        // ANY/ALL/NONE over a to-many key path: EXISTS over the members (flattening nested
        // to-many steps into nested EXISTS), as the evaluator iterates the flattened members.
        if comparison.modifier != .direct, case .keyPath(let base, let components) = comparison.lhs,
           case .toMany = try resolve(base: base, components: components, in: scope) {
            var positive = comparison
            positive.modifier = .direct
            let exists = try anyMember(base: base, components: components, in: scope) { memberLHS, memberScope in
                var inner = positive
                inner.lhs = memberLHS
                let condition = try self.compile(inner, in: memberScope)
                return comparison.modifier == .all ? "(NOT \(condition))" : condition
            }
            return comparison.modifier == .any ? exists : "(NOT \(exists))"
        }
        if comparison.modifier != .direct, case .aggregate(let items) = comparison.lhs {
            let terms = try items.map { item -> String in
                var inner = comparison
                inner.modifier = .direct
                inner.lhs = item
                return try compile(inner, in: scope)
            }
            switch comparison.modifier {
            case .any: return terms.isEmpty ? dialect.literal(false) : "(" + terms.joined(separator: " OR ") + ")"
            case .all: return terms.isEmpty ? dialect.literal(true) : "(" + terms.joined(separator: " AND ") + ")"
            default: return terms.isEmpty ? dialect.literal(true) : "(NOT (" + terms.joined(separator: " OR ") + "))"
            }
        }
        let op = comparison.op
        let options = comparison.options
        // Membership: `x IN toMany`, `toMany CONTAINS x`, `x IN {..}`, `{..} CONTAINS x`.
        if op == .in || op == .contains {
            let (collection, element) = op == .in ? (comparison.rhs, comparison.lhs) : (comparison.lhs, comparison.rhs)
            if case .keyPath(let base, let components) = collection,
               case .toMany = try resolve(base: base, components: components, in: scope) {
                return try anyMember(base: base, components: components, in: scope) { member, memberScope in
                    try self.compile(ComparisonNode(member, .equal, element, options: options), in: memberScope)
                }
            }
            if case .aggregate(let items) = collection {
                return try membership(element, in: items, options: options, scope: scope)
            }
        }
        if op == .between {
            guard case .aggregate(let bounds) = comparison.rhs, bounds.count == 2 else {
                throw PredicateError.semantic("BETWEEN needs {lower, upper} on its right")
            }
            let lower = try compile(ComparisonNode(comparison.lhs, .greaterOrEqual, bounds[0], options: options), in: scope)
            let upper = try compile(ComparisonNode(comparison.lhs, .lessOrEqual, bounds[1], options: options), in: scope)
            return "(\(lower) AND \(upper))"
        }
        let lhs = try scalar(comparison.lhs, in: scope)
        let rhs = try scalar(comparison.rhs, in: scope)
        if op == .in {
            // `"ab" IN name`: a string on the right means substring search, as in memory.
            guard rhs.kind == .string || rhs.kind == .null else { throw PredicateError.semantic("IN needs a collection on its right") }
            return try stringOperator(.contains, options, rhs, lhs)
        }
        return try compareScalars(lhs, op, rhs, options)
    }

    /// `EXISTS` over the members of the to-many step in `components`, with `condition` asked
    /// of the rest of the key path on each member (recursing through further to-many steps).
    private func anyMember(base: ExpressionNode, components: [String], in scope: Scope,
                           condition: @escaping (ExpressionNode, Scope) throws -> String) throws -> String {
        guard case .toMany(let owner, let alias, let relationship, let rest) = try resolve(base: base, components: components, in: scope) else {
            throw PredicateError.semantic("not a to-many key path")
        }
        let variable = "__member_" + makeAlias("v")
        let subquery = try membersSubquery(of: relationship, from: alias, in: owner, variable: variable, select: "1") { memberScope in
            memberScope.variables.merge(scope.variables) { own, _ in own }
            let memberExpression = ExpressionNode.keyPath(base: .variable(variable), components: rest)
            let memberValue: ExpressionNode = rest.isEmpty ? .variable(variable) : memberExpression
            if case .keyPath(let innerBase, let innerComponents) = memberValue,
               case .toMany = try self.resolve(base: innerBase, components: innerComponents, in: memberScope) {
                return (try self.anyMember(base: innerBase, components: innerComponents, in: memberScope, condition: condition), nil)
            }
            return (try condition(memberValue, memberScope), nil)
        }
        return "EXISTS \(subquery)"
    }

    private func membership(_ element: ExpressionNode, in items: [ExpressionNode], options: ComparisonOptions, scope: Scope) throws -> String {
        let value = try scalar(element, in: scope)
        var constants: [SQLOperand] = []
        var others: [String] = []
        for item in items {
            var operand = try scalar(item, in: scope)
            // SQLite's TEXT affinity: a listed number matches a string by its text
            // (`ValueComparison.isListMember`), so the list holds that text.
            if value.kind == .string, operand.kind == .number, let constant = operand.constant, let number = NumericValue(constant) {
                guard let text = number.sqliteText else { continue }
                operand = constantOperand(.string(text))
            }
            if options.isEmpty, value.kind != .null, operand.kind == value.kind, let constant = operand.constant, constant != .null {
                if case .object = operand.kind, objectPrimaryKey(constant) == nil { continue }
                constants.append(operand)
            } else {
                others.append(try compareScalars(value, .equal, operand, options))
            }
        }
        if !constants.isEmpty {
            // `x IN (...)` is NULL for a NULL x; `AND x IS NOT NULL` turns that into 0.
            others.insert("(\(value.sql) IN (\(constants.map(\.sql).joined(separator: ", "))) AND \(value.sql) IS NOT NULL)", at: 0)
        }
        return others.isEmpty ? dialect.literal(false) : "(" + others.joined(separator: " OR ") + ")"
    }

    /// Two single values; kinds that differ are never equal and never ordered.
    func compareScalars(_ lhs: SQLOperand, _ op: ComparisonOperator, _ rhs: SQLOperand, _ options: ComparisonOptions) throws -> String {
        if op.isStringOperator || op == .contains {
            return try stringOperator(op, options, lhs, rhs)
        }
        let isNullConstant = { (operand: SQLOperand) in operand.kind == .null }
        switch op {
        case .equal, .notEqual:
            let positive: String
            if isNullConstant(lhs) && isNullConstant(rhs) {
                positive = dialect.literal(true)
            } else if isNullConstant(lhs) || isNullConstant(rhs) {
                positive = "\(isNullConstant(lhs) ? rhs.sql : lhs.sql) IS NULL"
            } else if lhs.kind != rhs.kind || isUnsavedObject(lhs) || isUnsavedObject(rhs) {
                positive = dialect.literal(false)
            } else if lhs.kind == .string, !foldingOptions(options).isEmpty {
                positive = dialect.same(folded(lhs, options), folded(rhs, options))
            } else {
                positive = dialect.same(lhs.sql, rhs.sql)
            }
            return op == .equal ? positive : "(NOT \(positive))"
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard lhs.kind == rhs.kind, !isNullConstant(lhs) else { return dialect.literal(false) }
            if case .object = lhs.kind { return dialect.literal(false) }
            let (left, right) = lhs.kind == .string && !foldingOptions(options).isEmpty
                ? (folded(lhs, options), folded(rhs, options)) : (lhs.sql, rhs.sql)
            var terms = [dialect.order(left, op.rawValue, right, strings: lhs.kind == .string)]
            if lhs.constant == nil { terms.append("\(lhs.sql) IS NOT NULL") }
            if rhs.constant == nil { terms.append("\(rhs.sql) IS NOT NULL") }
            return "(" + terms.joined(separator: " AND ") + ")"
        default:
            throw PredicateError.semantic("\(op.rawValue) cannot compare single values")
        }
    }

    /// CONTAINS/BEGINSWITH/ENDSWITH/LIKE/MATCHES through the registered function that runs
    /// `StringMatching`, the evaluator's own code; non-strings never match.
    private func stringOperator(_ op: ComparisonOperator, _ options: ComparisonOptions, _ lhs: SQLOperand, _ rhs: SQLOperand) throws -> String {
        guard lhs.kind == .string, rhs.kind == .string else { return dialect.literal(false) }
        if op == .matches, case .string(let pattern)? = rhs.constant {
            let diacritics: ComparisonOptions = options.contains(.diacriticInsensitive) ? .diacriticInsensitive : []
            _ = try StringMatching.regularExpression(StringMatching.fold(pattern, diacritics), caseInsensitive: options.contains(.caseInsensitive))
        }
        let code = bind(.integer(Self.stringOperatorCode(op)))
        let flags = bind(.integer(Int64(options.rawValue)))
        return dialect.orFalse("NSPRED_STRING(\(code), \(flags), \(lhs.sql), \(rhs.sql))")
    }

    private func foldingOptions(_ options: ComparisonOptions) -> ComparisonOptions {
        options.intersection([.caseInsensitive, .diacriticInsensitive])
    }

    /// A string folded as `StringMatching.fold` does: constants now, columns by NSPRED_FOLD.
    private func folded(_ operand: SQLOperand, _ options: ComparisonOptions) -> String {
        if case .string(let text)? = operand.constant {
            return bind(.text(StringMatching.fold(text, options)))
        }
        return "NSPRED_FOLD(\(operand.sql), \(bind(.integer(Int64(foldingOptions(options).rawValue)))))"
    }

    private func isUnsavedObject(_ operand: SQLOperand) -> Bool {
        guard case .object = operand.kind, let constant = operand.constant else { return false }
        return objectPrimaryKey(constant) == nil
    }

    func objectPrimaryKey(_ constant: ConstantValue) -> Int64? {
        guard case .object(let opaque) = constant, let objectID = ValueComparison.objectID(of: opaque.value) else { return nil }
        return objectID.primaryKey
    }
}
