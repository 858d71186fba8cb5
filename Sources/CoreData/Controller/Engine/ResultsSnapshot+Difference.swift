/// The full-refetch path: diff two complete snapshots when the scope of a change is unknown.
extension ResultsSnapshot {
    /// Reports turning `self` into `new`, in the same table-legal shape as `apply(_:)`.
    ///
    /// Used after batch requests, merges of unknown scope and `refreshAllObjects()`, when the
    /// controller refetches instead of evaluating changed objects. Both snapshots are sorted by
    /// the same keys, so each pair of same-named sections is merged by key in one linear pass:
    /// rows found at equal keys under the same identity did not change place and are never
    /// hashed. Only the rest (the churn) go through a hash map to pair up moves, and through the
    /// planner's longest-increasing-subsequence pass. O(n) key comparisons plus O(c log c) for
    /// c churned rows. `contentChanged` names objects to report as updated even if they stay.
    func difference(to new: ResultsSnapshot, contentChanged: Set<ID> = []) -> ChangeBatch<ID> {
        var looseOld: [Loose] = []
        var looseNew: [Loose] = []
        var steadyRows = [Int](repeating: 0, count: new.sections.count)
        // Steady rows whose content changed, with both addresses, found during the merge.
        var steadyEdits: [(id: ID, old: RowAddress, new: RowAddress)] = []
        let checkContent = !contentChanged.isEmpty

        for (oldSection, section) in sections.enumerated() {
            guard let newSection = new.sectionIndexByName[section.name] else {
                for (row, element) in section.rows.enumerated() {
                    looseOld.append(Loose(id: element.id, address: RowAddress(section: oldSection, row: row), gap: 0))
                }
                continue
            }
            steadyRows[newSection] = mergeByKey(
                oldSection, new, newSection,
                onSteady: { id, oldRow, newRow in
                    if checkContent, contentChanged.contains(id) {
                        steadyEdits.append((id, RowAddress(section: oldSection, row: oldRow), RowAddress(section: newSection, row: newRow)))
                    }
                },
                onOldOnly: { id, row, gap in
                    looseOld.append(Loose(id: id, address: RowAddress(section: oldSection, row: row), gap: gap))
                },
                onNewOnly: { id, row, gap in
                    looseNew.append(Loose(id: id, address: RowAddress(section: newSection, row: row), gap: gap))
                })
        }
        for (newSection, section) in new.sections.enumerated() where sectionIndexByName[section.name] == nil {
            for (row, element) in section.rows.enumerated() {
                looseNew.append(Loose(id: element.id, address: RowAddress(section: newSection, row: row), gap: 0))
            }
        }

        // Pair the churn by identity: a row loose on both sides moved (or changed key).
        var newByID: [ID: Int] = [:]
        newByID.reserveCapacity(looseNew.count)
        for (index, loose) in looseNew.enumerated() { newByID[loose.id] = index }
        var paired = [Bool](repeating: false, count: looseNew.count)
        var candidates: [BatchPlanner<ID>.Candidate] = []
        candidates.reserveCapacity(looseOld.count + looseNew.count)
        for loose in looseOld {
            var candidate = BatchPlanner<ID>.Candidate(
                id: loose.id, old: loose.address, new: nil, oldGap: loose.gap, newGap: 0,
                contentChanged: contentChanged.contains(loose.id))
            if let index = newByID[loose.id] {
                paired[index] = true
                candidate.new = looseNew[index].address
                candidate.newGap = looseNew[index].gap
            }
            candidates.append(candidate)
        }
        for (index, loose) in looseNew.enumerated() where !paired[index] {
            candidates.append(.init(
                id: loose.id, old: nil, new: loose.address, oldGap: 0, newGap: loose.gap,
                contentChanged: contentChanged.contains(loose.id)))
        }

        let planner = BatchPlanner<ID>(
            oldSectionNames: sections.map(\.name),
            newSectionNames: new.sections.map(\.name),
            newSectionIndexByName: new.sectionIndexByName,
            sectionWeight: { _, newSection in 1 + steadyRows[newSection] },
            displacedRows: { oldSection, newSection in
                var rows: [BatchPlanner<ID>.DisplacedRow] = []
                _ = mergeByKey(
                    oldSection, new, newSection,
                    onSteady: { id, oldRow, newRow in
                        rows.append(.init(
                            id: id, old: RowAddress(section: oldSection, row: oldRow),
                            new: RowAddress(section: newSection, row: newRow)))
                    },
                    onOldOnly: { _, _, _ in }, onNewOnly: { _, _, _ in })
                return rows
            })
        var batch = planner.plan(candidates)

        // Steady rows whose content changed stay in place: updates at their old addresses
        // (unless their section had to be inserted again, which reported them already).
        if !steadyEdits.isEmpty {
            let reported = Set(batch.objectChanges.map(\.id))
            for edit in steadyEdits where !reported.contains(edit.id) {
                batch.objectChanges.append(.init(
                    id: edit.id, kind: .update, oldAddress: edit.old, newAddress: edit.new, contentChanged: true))
            }
            batch.sortForDelivery()
        }
        return batch
    }

    /// A row of the diff that did not stay at an equal key: deleted, inserted or moved.
    private struct Loose {
        var id: ID
        var address: RowAddress
        var gap: Int
    }

    /// Walks two same-named sections in key order, reporting rows present at an equal key
    /// under the same identity (steady) and the others with their gap (steady rows before).
    /// Returns the number of steady rows.
    private func mergeByKey(
        _ oldSection: Int, _ new: ResultsSnapshot, _ newSection: Int,
        onSteady: (ID, Int, Int) -> Void,
        onOldOnly: (ID, Int, Int) -> Void,
        onNewOnly: (ID, Int, Int) -> Void
    ) -> Int {
        let oldRows = sections[oldSection].rows
        let newRows = new.sections[newSection].rows
        var i = 0
        var j = 0
        var steady = 0
        while i < oldRows.count, j < newRows.count {
            let oldRow = oldRows[i]
            let newRow = newRows[j]
            if areInIncreasingOrder(oldRow.key, newRow.key) {
                onOldOnly(oldRow.id, i, steady)
                i += 1
            } else if areInIncreasingOrder(newRow.key, oldRow.key) {
                onNewOnly(newRow.id, j, steady)
                j += 1
            } else if oldRow.id == newRow.id {
                onSteady(oldRow.id, i, j)
                steady += 1
                i += 1
                j += 1
            } else {
                onOldOnly(oldRow.id, i, steady)
                onNewOnly(newRow.id, j, steady)
                i += 1
                j += 1
            }
        }
        while i < oldRows.count {
            onOldOnly(oldRows[i].id, i, steady)
            i += 1
        }
        while j < newRows.count {
            onNewOnly(newRows[j].id, j, steady)
            j += 1
        }
        return steady
    }
}
