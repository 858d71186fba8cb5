/// The incremental path: apply k changed objects to the snapshot and report what happened.
extension ResultsSnapshot {
    /// Moves the snapshot to its state after `changes` and returns the table reports.
    ///
    /// O(k log n + s) for k changes over n rows in s sections, plus one memmove per removed or
    /// inserted row inside its own section (sections are stored separately so a change never
    /// shifts the rows of other sections). Objects not in `changes` are assumed unchanged: the
    /// caller must include every object whose sort key, section name or predicate result may
    /// have changed.
    mutating func apply(_ changes: [RowChange<ID, Key>]) -> ChangeBatch<ID> {
        let changes = Self.lastChangePerID(changes)
        guard !changes.isEmpty else { return ChangeBatch() }

        // Old side, read before anything moves.
        let oldSectionNames = sections.map(\.name)
        var oldAddresses = [RowAddress?](repeating: nil, count: changes.count)
        var oldChangedRows: [Int: [Int]] = [:]
        for (index, change) in changes.enumerated() {
            guard let address = address(of: change.id) else { continue }
            oldAddresses[index] = address
            oldChangedRows[address.section, default: []].append(address.row)
        }
        for key in oldChangedRows.keys { oldChangedRows[key]!.sort() }

        // Mutate: out with the old rows, in with the new ones, then restore section order.
        for (section, rows) in oldChangedRows { removeRows(rows, fromSection: section) }
        insertRows(changes.compactMap { change in change.placement.map { (Row(id: change.id, key: $0.key), $0.section) } })
        normalizeSections()

        // New side.
        var newAddresses = [RowAddress?](repeating: nil, count: changes.count)
        var newChangedRows: [Int: [Int]] = [:]
        let placed = changes.indices.filter { changes[$0].placement != nil }
        for (index, address) in zip(placed, addresses(of: placed.map { changes[$0].id })) {
            let address = address!
            newAddresses[index] = address
            newChangedRows[address.section, default: []].append(address.row)
        }
        for key in newChangedRows.keys { newChangedRows[key]!.sort() }

        func gap(_ address: RowAddress?, _ changedRows: [Int: [Int]]) -> Int {
            guard let address, let rows = changedRows[address.section] else { return 0 }
            return address.row - Self.countBelow(address.row, in: rows)
        }
        let candidates = changes.indices.map { index in
            BatchPlanner<ID>.Candidate(
                id: changes[index].id,
                old: oldAddresses[index],
                new: newAddresses[index],
                oldGap: gap(oldAddresses[index], oldChangedRows),
                newGap: gap(newAddresses[index], newChangedRows),
                contentChanged: changes[index].contentChanged)
        }

        let changedIDs = Set(changes.map(\.id))
        let snapshot = self
        let planner = BatchPlanner<ID>(
            oldSectionNames: oldSectionNames,
            newSectionNames: sections.map(\.name),
            newSectionIndexByName: sectionIndexByName,
            sectionWeight: { _, new in
                // Unchanged rows are what a kept section spares us from reporting.
                1 + snapshot.sections[new].rows.count - (newChangedRows[new]?.count ?? 0)
            },
            displacedRows: { old, new in
                let removed = oldChangedRows[old] ?? []
                var result: [BatchPlanner<ID>.DisplacedRow] = []
                var rank = 0
                var skipped = 0
                for (row, element) in snapshot.sections[new].rows.enumerated()
                where !changedIDs.contains(element.id) {
                    // The rank-th unchanged row sat after every removed row at or below it.
                    while skipped < removed.count, removed[skipped] <= rank + skipped { skipped += 1 }
                    result.append(.init(
                        id: element.id,
                        old: RowAddress(section: old, row: rank + skipped),
                        new: RowAddress(section: new, row: row)))
                    rank += 1
                }
                return result
            })
        return planner.plan(candidates)
    }

    /// How many of the sorted `rows` are below `row`: binary search.
    private static func countBelow(_ row: Int, in rows: [Int]) -> Int {
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle] < row { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Keeps one change per identity (the last), so each object is reported at most once.
    private static func lastChangePerID(_ changes: [RowChange<ID, Key>]) -> [RowChange<ID, Key>] {
        var positions: [ID: Int] = [:]
        positions.reserveCapacity(changes.count)
        var result: [RowChange<ID, Key>] = []
        result.reserveCapacity(changes.count)
        for change in changes {
            if let existing = positions[change.id] {
                var merged = change
                merged.contentChanged = merged.contentChanged || result[existing].contentChanged
                result[existing] = merged
            } else {
                positions[change.id] = result.count
                result.append(change)
            }
        }
        return result
    }
}
