/// Sort descriptors compiled once for sorting in memory, ordering exactly as the SQL compiler's
/// ORDER BY does: nil first when ascending, strings by the descriptor's selector (a collation
/// of the same code in SQLite), ties left in their original order.
///
/// For example:
/// ```swift
/// let comparison = try SortComparison([NSSortDescriptor(key: "name", ascending: true)])
/// let sorted = try comparison.sorted(objects)
/// ```
struct SortComparison {
    private enum Step {
        case key(components: [String], selector: SortSelector, ascending: Bool)
        case comparator(NSSortDescriptor)
        /// A descriptor Foundation made from a Swift key path: only Foundation can apply it.
        case foreign(NSSortDescriptor)
    }

    private let steps: [Step]

    init(_ descriptors: [NSSortDescriptor]) throws {
        steps = try descriptors.map { descriptor in
            guard let sortKey = descriptor.sortKey else { return .foreign(descriptor) }
            if sortKey.selector.isEmpty { return .comparator(descriptor) }
            guard let selector = SortSelector(rawValue: sortKey.selector) else {
                throw PredicateError.semantic("unsupported sort selector \(sortKey.selector)")
            }
            guard !sortKey.key.isEmpty else { throw PredicateError.semantic("a sort descriptor needs a key") }
            return .key(components: sortKey.key.split(separator: ".", omittingEmptySubsequences: false).map(String.init),
                        selector: selector, ascending: descriptor.ascending)
        }
    }

    /// `objects` sorted; reads each key once per object (O(n·k) reads, O(n log n) comparisons).
    func sorted<Element>(_ objects: [Element]) throws -> [Element] {
        let keys = try objects.map { try sortValues(of: $0) }
        let order = objects.indices.sorted { left, right in
            let result = compare(objects[left], keys[left], objects[right], keys[right])
            return result == .orderedSame ? left < right : result == .orderedAscending
        }
        return order.map { objects[$0] }
    }

    /// The order of two objects.
    func compare(_ lhs: Any, _ rhs: Any) throws -> ComparisonResult {
        compare(lhs, try sortValues(of: lhs), rhs, try sortValues(of: rhs))
    }

    private func sortValues(of object: Any) throws -> [ConstantValue] {
        try steps.map { step in
            guard case .key(let components, _, _) = step else { return .null }
            switch try KeyPathReader.follow(components, from: .single(object)) {
            case .single(let value): return ConstantValue(any: value)
            case .many: throw PredicateError.semantic("to-many key \(components.joined(separator: ".")) not allowed in a sort descriptor")
            }
        }
    }

    private func compare(_ lhs: Any, _ lhsKeys: [ConstantValue], _ rhs: Any, _ rhsKeys: [ConstantValue]) -> ComparisonResult {
        for (index, step) in steps.enumerated() {
            let result: ComparisonResult
            switch step {
            case .key(_, let selector, let ascending):
                let ascendingResult = selector.compare(lhsKeys[index], rhsKeys[index])
                result = ascending ? ascendingResult : ascendingResult.reversed
            case .comparator(let descriptor), .foreign(let descriptor):
                result = descriptor.compare(lhs, to: rhs)
            }
            if result != .orderedSame { return result }
        }
        return .orderedSame
    }
}

extension ComparisonResult {
    var reversed: ComparisonResult {
        switch self {
        case .orderedAscending: .orderedDescending
        case .orderedDescending: .orderedAscending
        case .orderedSame: .orderedSame
        }
    }
}
