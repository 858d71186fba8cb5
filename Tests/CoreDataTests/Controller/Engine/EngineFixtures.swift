@testable import CoreData


/// A three-part sort key compared lexicographically.
struct EngineTripleKey: Comparable, CustomStringConvertible {
    var first: Int
    var second: Int
    var third: Int

    static func < (lhs: EngineTripleKey, rhs: EngineTripleKey) -> Bool {
        (lhs.first, lhs.second, lhs.third) < (rhs.first, rhs.second, rhs.third)
    }

    var description: String { "(\(first),\(second),\(third))" }
}

typealias EngineSnapshot = ResultsSnapshot<Int, EngineTripleKey>
typealias EngineTable = ReplayChecker<Int>.Table

/// One fake fetched object.
struct EngineItem {
    var id: Int
    var group: Int
    var score: Int
    var visible: Bool
    var version = 0
}

/// How the fake request sorts and sections items.
enum EngineLayout: CaseIterable {
    /// Sorted by group, score descending, id; sectioned by group (Apple's required shape).
    case sectionKeyFirst
    /// Sorted by score then id but sectioned by group: sections are not key runs.
    case sectionKeyNotFirst

    func key(_ item: EngineItem) -> EngineTripleKey {
        switch self {
        case .sectionKeyFirst: EngineTripleKey(first: item.group, second: -item.score, third: item.id)
        case .sectionKeyNotFirst: EngineTripleKey(first: item.score, second: item.id, third: 0)
        }
    }

    func section(_ item: EngineItem) -> String { "Z\(item.group)" }

    /// The from-scratch answer: what a fresh fetch would show.
    func snapshot(_ items: some Sequence<EngineItem>) -> EngineSnapshot {
        EngineSnapshot(
            rows: items.filter(\.visible).map { (id: $0.id, key: key($0), section: section($0)) },
            areInIncreasingOrder: <)
    }

    func change(for id: Int, in items: [Int: EngineItem], contentChanged: Bool) -> RowChange<Int, EngineTripleKey> {
        guard let item = items[id], item.visible else { return .absent(id) }
        return .present(id, key: key(item), section: section(item), contentChanged: contentChanged)
    }
}
