// Sort descriptors to ORDER BY terms. SQLite puts NULL first in ascending order, as Apple's
// store does and as `SortComparison` does in memory; string selectors become collations that
// run the same Swift comparison (registered by `SQLCompiler.registerFunctions(on:)`).

extension SQLCompiler {
    func orderByClause(for descriptors: [NSSortDescriptor]) throws -> String {
        try descriptors.map { descriptor in
            guard let sortKey = descriptor.sortKey, !sortKey.selector.isEmpty else {
                throw PredicateError.semantic("a sort descriptor made from a comparator or a Swift key path Foundation created cannot sort in SQLite")
            }
            guard let selector = SortSelector(rawValue: sortKey.selector) else {
                throw PredicateError.semantic("unsupported sort selector \(sortKey.selector)")
            }
            let components = sortKey.key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard case .scalar(let operand) = try resolve(base: .evaluatedObject, components: components, in: rootScope) else {
                throw PredicateError.semantic("to-many key \(sortKey.key) not allowed in a sort descriptor")
            }
            return dialect.orderTerm(operand.sql, selector: operand.kind == .string ? selector : nil, ascending: descriptor.ascending)
        }.joined(separator: ", ")
    }
}
