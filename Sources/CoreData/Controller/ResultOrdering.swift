/// The sort key of one fetched object, read once when the object enters the results or changes.
///
/// Keeping the key (rather than re-reading the object) is what lets a later change find where
/// the object *was*: by then its values already hold the new state.
struct ResultSortKey {
    var values: [ConstantValue]
    /// Breaks ties the way fetches do (object ID order), so equal sort values still have one
    /// order and an incremental update lands where a fresh fetch would.
    var tieBreak: NSManagedObjectID?
}

/// A fetch request's sort descriptors compiled for reading keys and comparing them in memory,
/// with the same value order and string collations the SQL compiler uses.
struct ResultOrdering {
    private struct Step {
        let path: ResultKeyPath
        let selector: SortSelector
        let ascending: Bool
    }

    private let steps: [Step]
    /// False when a descriptor compares with a closure or a typed Swift key path: that order
    /// cannot be recomputed from stored values, so the controller refetches on every change and
    /// keys are just fetch positions.
    let isIncremental: Bool

    /// `entity` is the request's, whose stored attributes are read by ordinal.
    init(_ descriptors: [NSSortDescriptor], entity: NSEntityDescription? = nil) {
        var steps: [Step] = []
        var incremental = true
        for descriptor in descriptors {
            guard let sortKey = descriptor.sortKey, !sortKey.key.isEmpty,
                  let selector = SortSelector(rawValue: sortKey.selector)
            else {
                incremental = false
                break
            }
            steps.append(Step(path: ResultKeyPath(sortKey.key, entity: entity), selector: selector, ascending: descriptor.ascending))
        }
        self.steps = incremental ? steps : []
        isIncremental = incremental
    }

    /// The key paths read by the descriptors (e.g. `"team.zone"`), for relationship tracking.
    var keyPaths: [String] { steps.map(\.path.keyPath) }

    /// The key path of the first descriptor, the one sections must follow.
    var firstKeyPath: String? { steps.first?.path.keyPath }

    /// Reads `object`'s sort values now; `row` is its read-ahead row (`ResultKeyPath.readAheadRow(of:)`).
    func key(for object: NSManagedObject, readAhead row: RowSnapshot?) -> ResultSortKey {
        // By index, here and in `areInIncreasingOrder`: iterating `steps` copied each step,
        // retaining the key path's strings and attribute, for every object and comparison.
        ResultSortKey(
            values: steps.indices.map { steps[$0].path.queryValue(of: object, readAhead: row) },
            tieBreak: object.objectID)
    }

    /// The key for the object at `position` of a fetch this ordering cannot reproduce.
    func positionKey(_ position: Int) -> ResultSortKey {
        ResultSortKey(values: [.int(Int64(position))], tieBreak: nil)
    }

    /// Strict order on keys: descriptors first, then the tie-breaker.
    func areInIncreasingOrder(_ lhs: ResultSortKey, _ rhs: ResultSortKey) -> Bool {
        guard isIncremental else {
            return ValueComparison.order(lhs.values[0], rhs.values[0]) == .orderedAscending
        }
        for index in steps.indices {
            switch steps[index].selector.compare(lhs.values[index], rhs.values[index]) {
            case .orderedAscending: return steps[index].ascending
            case .orderedDescending: return !steps[index].ascending
            case .orderedSame: continue
            }
        }
        switch (lhs.tieBreak, rhs.tieBreak) {
        case let (left?, right?): return left < right
        default: return false
        }
    }
}
