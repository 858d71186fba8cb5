/// Compiles the expressions of one dictionary fetch with the statement's `SQLCompiler`, so
/// their joins and bound values land in the same statement.
struct ResultColumnCompiler {
    let compiler: SQLCompiler
    let request: DictionaryFetch

    func operand(_ node: ExpressionNode) throws -> SQLOperand {
        guard case .function(let selector, let arguments) = node else {
            return try compiler.scalar(node, in: compiler.rootScope)
        }
        guard let function = ExpressionFunction(selector: selector) else {
            throw CoreDataError.misuse("Unknown function '\(selector)' in a fetched expression")
        }
        if function == .now { return compiler.constantOperand(.date(Date())) }
        let operands = try arguments.map(operand)
        let first = operands.first?.sql ?? "NULL"
        switch function {
        case .sum: return SQLOperand(sql: "COALESCE(SUM(\(first)), 0)", kind: .number)
        case .count: return SQLOperand(sql: "COUNT(\(first))", kind: .number)
        case .min: return SQLOperand(sql: "MIN(\(first))", kind: operands[0].kind)
        case .max: return SQLOperand(sql: "MAX(\(first))", kind: operands[0].kind)
        case .average: return SQLOperand(sql: "AVG(\(first))", kind: .number)
        case .abs: return SQLOperand(sql: "ABS(\(first))", kind: .number)
        case .add: return SQLOperand(sql: "(\(first) + \(operands[1].sql))", kind: .number)
        case .subtract: return SQLOperand(sql: "(\(first) - \(operands[1].sql))", kind: .number)
        case .multiply: return SQLOperand(sql: "(\(first) * \(operands[1].sql))", kind: .number)
        // Real division, as in memory; a zero divisor gives NULL in both.
        case .divide: return SQLOperand(sql: compiler.dialect.divide(first, operands[1].sql), kind: .number)
        default: throw CoreDataError.misuse("The function '\(selector)' has no SQL form")
        }
    }

    /// ORDER BY terms: a sort key naming an expression description sorts by its value.
    func orderBy(_ descriptors: [NSSortDescriptor]) throws -> String {
        try descriptors.map { descriptor in
            if let key = descriptor.sortKey?.key, let column = request.column(named: key), column.expression != .key(key) {
                return try operand(column.expression).sql + (descriptor.ascending ? " ASC" : " DESC")
            }
            return try compiler.orderByClause(for: [descriptor])
        }.joined(separator: ", ")
    }

    /// The HAVING condition: names of fetched columns (`count > 1`) stand for their values.
    func condition(_ node: PredicateNode) throws -> String {
        switch node {
        case .constant(let value): return compiler.dialect.literal(value)
        case .and(let terms): return terms.isEmpty ? compiler.dialect.literal(true) : "(" + (try terms.map(condition)).joined(separator: " AND ") + ")"
        case .or(let terms): return terms.isEmpty ? compiler.dialect.literal(false) : "(" + (try terms.map(condition)).joined(separator: " OR ") + ")"
        case .not(let term): return "(NOT \(try condition(term)))"
        case .block: throw CoreDataError.misuse("A block predicate cannot be a havingPredicate")
        case .comparison(let comparison):
            guard comparison.modifier == .direct else {
                throw CoreDataError.misuse("ANY, ALL and NONE are not supported in a havingPredicate")
            }
            return try compiler.compareScalars(try havingOperand(comparison.lhs), comparison.op, try havingOperand(comparison.rhs), comparison.options)
        }
    }

    private func havingOperand(_ node: ExpressionNode) throws -> SQLOperand {
        if case .keyPath(.evaluatedObject, let components) = node, let column = request.column(named: components.joined(separator: ".")) {
            return try operand(column.expression)
        }
        return try operand(node)
    }
}
