// Expressions to single SQL values: bound constants, columns, collection operators over
// to-many relationships, SUBQUERY counts and arithmetic.

extension SQLCompiler {
    /// An expression that must yield one value per row.
    func scalar(_ expression: ExpressionNode, in scope: Scope) throws -> SQLOperand {
        if case .constant(let value) = expression { return constantOperand(value) }
        if case .aggregate = expression { throw PredicateError.semantic("a collection is not allowed here") }
        if Self.isConstant(expression) {
            return constantOperand(ConstantValue(any: try PredicateEvaluator.evaluate(expression, nil)))
        }
        switch expression {
        case .constant(let value): return constantOperand(value)
        case .evaluatedObject, .variable:
            return try keyPathOperand(base: expression, components: [], in: scope)
        case .keyPath(.subquery(let collection, let variable, let predicate), let components):
            guard components == ["@count"] else { throw PredicateError.semantic("a SUBQUERY in a fetch must be followed by .@count") }
            return try subqueryCount(collection, variable: variable, predicate: predicate, in: scope)
        case .keyPath(let base, let components):
            return try keyPathOperand(base: base, components: components, in: scope)
        case .function(let selector, let arguments):
            return try function(selector, arguments, in: scope)
        case .aggregate:
            throw PredicateError.semantic("a collection is not allowed here")
        case .subquery:
            throw PredicateError.semantic("a SUBQUERY in a fetch must be followed by .@count")
        case .fetch:
            throw PredicateError.semantic("FETCH is evaluated in memory (in a mapping model), not in a fetch")
        }
    }

    /// Whether `expression` involves no row, so it can be computed now and bound.
    static func isConstant(_ expression: ExpressionNode) -> Bool {
        switch expression {
        case .constant: true
        case .aggregate(let items): items.allSatisfy(isConstant)
        case .function(_, let arguments): arguments.allSatisfy(isConstant)
        default: false
        }
    }

    func constantOperand(_ value: ConstantValue) -> SQLOperand {
        let kind: SQLOperand.Kind
        let binding: SQLValue
        switch value {
        case .null: return SQLOperand(sql: "NULL", kind: .null, constant: .null)
        case .bool(let flag): (kind, binding) = (.number, .integer(flag ? 1 : 0))
        case .int(let number): (kind, binding) = (.number, .integer(number))
        case .double(let number): (kind, binding) = (.number, .real(number))
        case .decimal:
            switch NumericValue(value) {
            case .int(let number)?: (kind, binding) = (.number, .integer(number))
            case .double(let number)?: (kind, binding) = (.number, .real(number))
            case nil: (kind, binding) = (.number, .null)
            }
        case .string(let text): (kind, binding) = (.string, .text(text))
        case .date(let date): (kind, binding) = (.date, .real(date.timeIntervalSinceReferenceDate))
        case .data(let data): (kind, binding) = (.data, .blob(Array(data)))
        case .uuid(let uuid): (kind, binding) = (.uuid, .blob(withUnsafeBytes(of: uuid.uuid) { Array($0) }))
        case .url(let url): (kind, binding) = (.url, .text(url.absoluteString))
        case .object(let opaque) where opaque.value is NSEntityDescription:
            // Matched by name in this statement's model, which may be another load of the same file.
            let name = (opaque.value as? NSEntityDescription)?.name
            let number = name.flatMap { entity.managedObjectModel?.entitiesByName[$0]?.entityNumber }
            (kind, binding) = (.entity, number.map { .integer(Int64($0)) } ?? .null)
        case .object(let opaque):
            guard let objectID = ValueComparison.objectID(of: opaque.value) else {
                // Not a managed object: it can equal nothing stored.
                return SQLOperand(sql: bind(.null), kind: .data, constant: .data(Data([0xFF])))
            }
            kind = .object(objectID.entity)
            binding = objectID.primaryKey.map { .integer($0) } ?? .null
        }
        return SQLOperand(sql: bind(binding), kind: kind, constant: value)
    }

    private func keyPathOperand(base: ExpressionNode, components: [String], in scope: Scope) throws -> SQLOperand {
        switch try resolve(base: base, components: components, in: scope) {
        case .scalar(let operand): return operand
        case .toMany(let owner, let alias, let relationship, let rest):
            return try collectionOperator(relationship, from: alias, in: owner, rest: rest, path: components)
        }
    }

    /// `items.@count`, `items.@sum.price`, `items.@avg.price`, `items.@min.date`, ...
    private func collectionOperator(_ relationship: NSRelationshipDescription, from alias: String, in scope: Scope,
                                    rest: [String], path: [String]) throws -> SQLOperand {
        let written = path.joined(separator: ".")
        guard let operatorName = rest.first, operatorName.hasPrefix("@") else {
            throw PredicateError.semantic("to-many key \(written) not allowed here; use ANY, ALL, NONE, @count or SUBQUERY")
        }
        if operatorName == "@count" {
            guard rest.count == 1 else { throw PredicateError.semantic("nothing may follow @count in \(written)") }
            let sql = try membersSubquery(of: relationship, from: alias, in: scope, select: "COUNT(*)") { _ in (nil, nil) }
            return SQLOperand(sql: sql, kind: .number)
        }
        let aggregates = ["@sum": "COALESCE(SUM({}), 0)", "@avg": "AVG({})", "@min": "MIN({})", "@max": "MAX({})"]
        guard let template = aggregates[operatorName] else {
            throw PredicateError.semantic("unsupported collection operator \(operatorName) in \(written)")
        }
        guard rest.count >= 2 else { throw PredicateError.semantic("\(operatorName) needs a key after it in \(written)") }
        var kind = SQLOperand.Kind.number
        let sql = try membersSubquery(of: relationship, from: alias, in: scope, variable: "__aggregate", select: template) { memberScope in
            guard case .scalar(let member) = try self.resolve(base: .variable("__aggregate"), components: Array(rest.dropFirst()), in: memberScope) else {
                throw PredicateError.semantic("nested to-many keys in \(written) are not supported in a fetch")
            }
            if operatorName == "@min" || operatorName == "@max" {
                kind = member.kind
            } else if member.kind != .number {
                throw PredicateError.semantic("\(operatorName) needs numbers in \(written)")
            }
            return (nil, member.sql)
        }
        return SQLOperand(sql: sql, kind: kind)
    }

    private func subqueryCount(_ collection: ExpressionNode, variable: String, predicate: PredicateNode, in scope: Scope) throws -> SQLOperand {
        guard case .keyPath(let base, let components) = collection,
              case .toMany(let owner, let alias, let relationship, let rest) = try resolve(base: base, components: components, in: scope),
              rest.isEmpty else {
            throw PredicateError.semantic("the collection of a SUBQUERY must be a to-many relationship")
        }
        let sql = try membersSubquery(of: relationship, from: alias, in: owner, variable: variable, select: "COUNT(*)") { memberScope in
            memberScope.variables.merge(scope.variables) { own, _ in own }
            return (try self.compile(predicate, in: memberScope), nil)
        }
        return SQLOperand(sql: sql, kind: .number)
    }

    /// Arithmetic on numbers, and aggregate functions over a to-many key path.
    private func function(_ selector: String, _ arguments: [ExpressionNode], in scope: Scope) throws -> SQLOperand {
        guard let function = ExpressionFunction(selector: selector) else {
            throw PredicateError.semantic("unknown function \(selector)")
        }
        if function.isAggregate {
            let collectionOperators: [ExpressionFunction: String] = [.sum: "@sum", .average: "@avg", .min: "@min", .max: "@max", .count: "@count"]
            guard arguments.count == 1, let operatorName = collectionOperators[function],
                  case .keyPath(let base, let components) = arguments[0],
                  case .toMany(_, _, _, let rest) = try resolve(base: base, components: components, in: scope) else {
                throw PredicateError.semantic("\(selector) in a fetch predicate needs one to-many key path")
            }
            if function == .count, !rest.isEmpty { throw PredicateError.semantic("count: in a fetch predicate needs a to-many key path") }
            var path = components
            path.insert(operatorName, at: components.count - rest.count)
            return try scalar(.keyPath(base: base, components: path), in: scope)
        }
        let operands = try arguments.map { try scalar($0, in: scope) }
        for operand in operands where operand.kind != .number && operand.kind != .null {
            throw PredicateError.semantic("\(selector) needs numbers")
        }
        if operands.contains(where: { $0.kind == .null }) { return SQLOperand(sql: "NULL", kind: .null, constant: .null) }
        switch function {
        case .add: return SQLOperand(sql: "(\(operands[0].sql) + \(operands[1].sql))", kind: .number)
        case .subtract: return SQLOperand(sql: "(\(operands[0].sql) - \(operands[1].sql))", kind: .number)
        case .multiply: return SQLOperand(sql: "(\(operands[0].sql) * \(operands[1].sql))", kind: .number)
        // Real division, as in memory; SQLite yields NULL for a zero divisor, as we do.
        case .divide: return SQLOperand(sql: dialect.divide(operands[0].sql, operands[1].sql), kind: .number)
        default: throw PredicateError.semantic("\(selector) on stored values is not supported in a fetch")
        }
    }
}
