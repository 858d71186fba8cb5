/// Turns "where each changed row was and is" into table-legal reports (DESIGN.md §7).
///
/// Shared by the incremental engine and the full-refetch diff: both describe their rows as
/// candidates with old and new addresses plus a *gap*: how many unchanged rows of its section
/// precede the row. A row that keeps its section and gap, and keeps its order among the other
/// changed rows of that gap (a longest increasing subsequence decides), is still in place
/// relative to everything the table leaves alone, so it is an update or nothing; every other
/// surviving row is a move. The full diff has no unchanged rows: every gap is 0 and the
/// subsequence runs over whole sections.
struct BatchPlanner<ID: Hashable> {
    /// A row the planner must classify.
    struct Candidate {
        var id: ID
        var old: RowAddress?
        var new: RowAddress?
        /// Unchanged rows of the old section before `old`.
        var oldGap: Int
        /// Unchanged rows of the new section before `new`.
        var newGap: Int
        var contentChanged: Bool
    }

    /// An unchanged row of a section that must be deleted and inserted again (its order
    /// among the other sections changed): the table loses it with the section.
    struct DisplacedRow {
        var id: ID
        var old: RowAddress
        var new: RowAddress
    }

    var oldSectionNames: [String]
    var newSectionNames: [String]
    var newSectionIndexByName: [String: Int]
    /// How much keeping old section `i` as new section `j` is worth (rows it saves reporting).
    var sectionWeight: (_ old: Int, _ new: Int) -> Int
    /// The unchanged rows of a surviving section that could not keep its place.
    var displacedRows: (_ old: Int, _ new: Int) -> [DisplacedRow]
    /// Whether every candidate has gap 0 (no unchanged rows: the full diff).
    var gapsAreZero = false

    /// Rows sharing a section and the same unchanged rows before them.
    private struct Gap: Hashable {
        var section: Int
        var gap: Int
    }

    /// Plans the batch for `candidates`: O(c log c + s log s) for c candidates, s sections.
    func plan(_ candidates: [Candidate]) -> ChangeBatch<ID> {
        var batch = ChangeBatch<ID>()

        // Sections: a surviving name keeps its section unless its order among the other
        // survivors changed; then it is deleted and inserted again (tables cannot move one).
        var survivorOld: [Int] = []
        var survivorNew: [Int] = []
        var survivorWeight: [Int] = []
        for (index, name) in oldSectionNames.enumerated() {
            if let newIndex = newSectionIndexByName[name] {
                survivorOld.append(index)
                survivorNew.append(newIndex)
                survivorWeight.append(sectionWeight(index, newIndex))
            }
        }
        let kept = IncreasingSubsequence.heaviest(
            survivorNew, weights: survivorWeight, bound: newSectionNames.count)
        var oldKept = [Bool](repeating: false, count: oldSectionNames.count)
        var newKept = [Bool](repeating: false, count: newSectionNames.count)
        for (position, isKept) in kept.enumerated() where isKept {
            oldKept[survivorOld[position]] = true
            newKept[survivorNew[position]] = true
        }
        for (index, name) in oldSectionNames.enumerated() where !oldKept[index] {
            batch.sectionChanges.append(.init(kind: .delete, index: index, name: name))
        }
        for (index, name) in newSectionNames.enumerated() where !newKept[index] {
            batch.sectionChanges.append(.init(kind: .insert, index: index, name: name))
        }
        for (position, isKept) in kept.enumerated() where !isKept {
            for row in displacedRows(survivorOld[position], survivorNew[position]) {
                batch.objectChanges.append(.init(
                    id: row.id, kind: .insert, oldAddress: row.old, newAddress: row.new,
                    contentChanged: false))
            }
        }

        // Rows: settle everything that cannot stay, group the rest by (section, gap).
        // With no unchanged rows (a full diff) every gap is 0: index groups by section instead
        // of hashing 100,000 keys.
        var groupsBySection = [[Int]](repeating: [], count: gapsAreZero ? newSectionNames.count : 0)
        var groups: [Gap: [Int]] = [:]
        for (index, candidate) in candidates.enumerated() {
            switch (candidate.old, candidate.new) {
            case (nil, nil):
                continue
            case let (old?, nil):
                batch.objectChanges.append(.init(
                    id: candidate.id, kind: .delete, oldAddress: old, newAddress: nil,
                    contentChanged: candidate.contentChanged))
            case let (nil, new?):
                batch.objectChanges.append(.init(
                    id: candidate.id, kind: .insert, oldAddress: nil, newAddress: new,
                    contentChanged: candidate.contentChanged))
            case let (old?, new?):
                if !oldKept[old.section] {
                    // Its section goes away in this batch: a move out of it is illegal.
                    batch.objectChanges.append(.init(
                        id: candidate.id, kind: .insert, oldAddress: old, newAddress: new,
                        contentChanged: candidate.contentChanged))
                } else if !newKept[new.section]
                    || oldSectionNames[old.section] != newSectionNames[new.section]
                    || candidate.oldGap != candidate.newGap
                {
                    batch.objectChanges.append(.init(
                        id: candidate.id, kind: .move, oldAddress: old, newAddress: new,
                        contentChanged: candidate.contentChanged))
                } else {
                    if gapsAreZero {
                        groupsBySection[new.section].append(index)
                    } else {
                        groups[Gap(section: new.section, gap: candidate.newGap), default: []].append(index)
                    }
                }
            }
        }

        // Inside one gap the changed rows keep their places only if their order holds.
        for var members in groupsBySection + Array(groups.values) where !members.isEmpty {
            if members.count > 1,
               !zip(members, members.dropFirst()).allSatisfy({
                   candidates[$0].old!.row < candidates[$1].old!.row
               })
            {
                members.sort { candidates[$0].old!.row < candidates[$1].old!.row }
            }
            let stays = members.count == 1
                ? [true]
                : IncreasingSubsequence.longest(members.map { candidates[$0].new!.row })
            for (position, index) in members.enumerated() {
                let candidate = candidates[index]
                if stays[position] {
                    guard candidate.contentChanged else { continue }
                    batch.objectChanges.append(.init(
                        id: candidate.id, kind: .update, oldAddress: candidate.old,
                        newAddress: candidate.new, contentChanged: true))
                } else {
                    batch.objectChanges.append(.init(
                        id: candidate.id, kind: .move, oldAddress: candidate.old,
                        newAddress: candidate.new, contentChanged: candidate.contentChanged))
                }
            }
        }
        batch.sortForDelivery()
        return batch
    }
}
