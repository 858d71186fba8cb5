/// Replaces `$NAME` variables in a tree with values, leaving variables that a `SUBQUERY`
/// binds (its iteration variable) alone.
enum PredicateSubstitution {
    static func substitute(_ node: PredicateNode, _ variables: [String: Any], bound: Set<String> = []) throws -> PredicateNode {
        switch node {
        case .constant, .block: return node
        case .and(let terms): return .and(try terms.map { try substitute($0, variables, bound: bound) })
        case .or(let terms): return .or(try terms.map { try substitute($0, variables, bound: bound) })
        case .not(let term): return .not(try substitute(term, variables, bound: bound))
        case .comparison(var comparison):
            comparison.lhs = try substitute(comparison.lhs, variables, bound: bound)
            comparison.rhs = try substitute(comparison.rhs, variables, bound: bound)
            return .comparison(comparison)
        }
    }

    static func substitute(_ expression: ExpressionNode, _ variables: [String: Any], bound: Set<String>) throws -> ExpressionNode {
        switch expression {
        case .constant, .evaluatedObject: return expression
        case .variable(let name):
            guard !bound.contains(name), let value = variables[name] else { return expression }
            return try PredicateParser.expression(forArgument: value, depth: 0)
        case .keyPath(let base, let components):
            let replaced = try substitute(base, variables, bound: bound)
            // `$x.name` with `$x` now a key path collapses to one key path, as if written so.
            if case .keyPath(let innerBase, let inner) = replaced { return .keyPath(base: innerBase, components: inner + components) }
            // `$FETCH_SOURCE.genre` with an object bound: the path's value is known now, and a
            // store can bind a value where it cannot follow a path from a constant.
            if case .constant = replaced {
                let value = try PredicateEvaluator.evaluate(.keyPath(base: replaced, components: components), nil)
                return try PredicateParser.expression(forArgument: value ?? NSNull(), depth: 0)
            }
            return .keyPath(base: replaced, components: components)
        case .aggregate(let items): return .aggregate(try items.map { try substitute($0, variables, bound: bound) })
        case .function(let name, let arguments): return .function(name, try arguments.map { try substitute($0, variables, bound: bound) })
        case .subquery(let collection, let variable, let predicate):
            return .subquery(collection: try substitute(collection, variables, bound: bound), variable: variable,
                             predicate: try substitute(predicate, variables, bound: bound.union([variable])))
        case .fetch(let request, let context, let countOnly):
            return .fetch(request: try substitute(request, variables, bound: bound), context: try substitute(context, variables, bound: bound),
                          countOnly: countOnly)
        }
    }
}
