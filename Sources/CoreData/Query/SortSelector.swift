/// The string comparisons a sort descriptor may name. Each orders strings the same way in
/// memory and in SQLite, where it is a collation registered on the connection.
enum SortSelector: String, Hashable, Sendable, CaseIterable {
    case compare = "compare:"
    case caseInsensitiveCompare = "caseInsensitiveCompare:"
    case localizedCompare = "localizedCompare:"
    case localizedCaseInsensitiveCompare = "localizedCaseInsensitiveCompare:"
    case localizedStandardCompare = "localizedStandardCompare:"

    /// The SQLite collation name; nil for `compare:`, which is SQLite's BINARY.
    var collationName: String? {
        switch self {
        case .compare: nil
        case .caseInsensitiveCompare: "NS_CASE_INSENSITIVE"
        case .localizedCompare: "NS_LOCALIZED"
        case .localizedCaseInsensitiveCompare: "NS_LOCALIZED_CASE_INSENSITIVE"
        case .localizedStandardCompare: "NS_LOCALIZED_STANDARD"
        }
    }

    /// Two strings under this comparison.
    func compare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        switch self {
        case .compare: StringMatching.compareBytes(lhs, rhs)
        case .caseInsensitiveCompare:
            StringMatching.compareBytes(StringMatching.fold(lhs, .caseInsensitive), StringMatching.fold(rhs, .caseInsensitive))
        case .localizedCompare: lhs.localizedCompare(rhs)
        case .localizedCaseInsensitiveCompare: lhs.localizedCaseInsensitiveCompare(rhs)
        case .localizedStandardCompare: lhs.localizedStandardCompare(rhs)
        }
    }

    /// Two values: strings by this comparison, anything else by `ValueComparison.order`.
    func compare(_ lhs: ConstantValue, _ rhs: ConstantValue) -> ComparisonResult {
        if self != .compare, case .string(let left) = lhs, case .string(let right) = rhs {
            return compare(left, right)
        }
        return ValueComparison.order(lhs, rhs)
    }
}
