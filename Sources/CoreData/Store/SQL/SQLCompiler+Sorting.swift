// Sort descriptors to ORDER BY terms. SQLite puts NULL first in ascending order, as Apple's
// store does and as `SortComparison` does in memory; string selectors become collations that
// run the same Swift comparison (registered by `SQLCompiler.registerFunctions(on:)`).

extension SQLCompiler {
    /// One sort key, compiled.
    struct SortTerm {
        let operand: SQLOperand
        let selector: SortSelector
        let ascending: Bool

        /// Whether the database orders this key as `SortSelector.compare` does: SQLite always
        /// (its collations run that code); PostgreSQL for numbers, dates and `compare:` on
        /// strings (byte order), not for the localized and case-insensitive selectors, whose
        /// results differ between PostgreSQL's collations and Foundation's.
        func ordersInSQL(_ dialect: SQLDialect) -> Bool {
            dialect == .sqlite || operand.kind != .string || selector == .compare
        }
    }

    func sortTerms(for descriptors: [NSSortDescriptor]) throws -> [SortTerm] {
        try descriptors.map { descriptor in
            guard let sortKey = descriptor.sortKey, !sortKey.selector.isEmpty else {
                throw PredicateError.semantic("a sort descriptor made from a comparator or a Swift key path Foundation created cannot sort in SQL")
            }
            guard let selector = SortSelector(rawValue: sortKey.selector) else {
                throw PredicateError.semantic("unsupported sort selector \(sortKey.selector)")
            }
            let components = sortKey.key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard case .scalar(let operand) = try resolve(base: .evaluatedObject, components: components, in: rootScope) else {
                throw PredicateError.semantic("to-many key \(sortKey.key) not allowed in a sort descriptor")
            }
            return SortTerm(operand: operand, selector: selector, ascending: descriptor.ascending)
        }
    }

    func orderByClause(for descriptors: [NSSortDescriptor]) throws -> String {
        orderByClause(for: try sortTerms(for: descriptors))
    }

    func orderByClause(for terms: [SortTerm]) -> String {
        terms.map { dialect.orderTerm($0.operand.sql, selector: $0.operand.kind == .string ? $0.selector : nil, ascending: $0.ascending) }
            .joined(separator: ", ")
    }
}
