/// `string.localizedStandardContains(other)` inside `#Predicate`.
///
/// Foundation on Linux offers the string method but not the builder the `#Predicate` macro
/// expands it to, so such a predicate does not compile there. We supply both the builder and
/// its expression: it evaluates as Foundation's method does (case- and diacritic-insensitive
/// substring test) and translates to `CONTAINS[cd]`, so it also runs in SQL.
extension PredicateExpressions {
    public struct StringLocalizedStandardContains<Root: PredicateExpression, Other: PredicateExpression>: PredicateExpression
    where Root.Output: StringProtocol, Other.Output: StringProtocol {
        public typealias Output = Bool

        public let root: Root
        public let other: Other

        public init(root: Root, other: Other) {
            self.root = root
            self.other = other
        }

        public func evaluate(_ bindings: PredicateBindings) throws -> Bool {
            let base = String(try root.evaluate(bindings))
            let searched = String(try other.evaluate(bindings))
            return base.range(of: searched, options: [.caseInsensitive, .diacriticInsensitive]) != nil
        }
    }

    public static func build_localizedStandardContains<Root, Other>(_ root: Root, _ other: Other) -> StringLocalizedStandardContains<Root, Other> {
        StringLocalizedStandardContains(root: root, other: other)
    }
}

extension PredicateExpressions.StringLocalizedStandardContains: Sendable where Root: Sendable, Other: Sendable {}

extension PredicateExpressions.StringLocalizedStandardContains: Codable where Root: Codable, Other: Codable {
    private enum CodingKeys: String, CodingKey { case root, other }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(root: try container.decode(Root.self, forKey: .root), other: try container.decode(Other.self, forKey: .other))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(root, forKey: .root)
        try container.encode(other, forKey: .other)
    }
}

extension PredicateExpressions.StringLocalizedStandardContains: StandardPredicateExpression
where Root: StandardPredicateExpression, Other: StandardPredicateExpression {}

extension PredicateExpressions.StringLocalizedStandardContains: BooleanPredicateExpression {
    func predicateNode(_ translator: FoundationPredicateTranslator) throws -> PredicateNode {
        let lhs = try translator.values(root)
        let rhs = try translator.values(other)
        var terms: [PredicateNode] = []
        for left in lhs {
            for right in rhs {
                let contains = ComparisonNode(left.node, .contains, right.node, options: [.caseInsensitive, .diacriticInsensitive])
                terms.append(.conjunction(left.conditions + right.conditions + [.comparison(contains)]))
            }
        }
        return .disjunction(terms)
    }
}
