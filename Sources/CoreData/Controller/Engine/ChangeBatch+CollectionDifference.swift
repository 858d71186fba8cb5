/// The flat summary Apple hands to `controller(_:didChangeContentWith:)` as a difference.
extension ChangeBatch {
    /// The batch as a `CollectionDifference` over the flat list of identities.
    ///
    /// Built from the reports, not by a Myers diff of the two lists: removals at old flat
    /// offsets, insertions at new ones, moves associated both ways. Rows left out of the batch
    /// keep their relative order, which is exactly what makes the difference valid.
    /// `oldStarts`/`newStarts` are the section start offsets (`ResultsSnapshot.sectionStarts`).
    func summaryDifference(oldStarts: [Int], newStarts: [Int]) -> CollectionDifference<ID> {
        summaryDifference(oldStarts: oldStarts, newStarts: newStarts) { $0 }
    }

    /// The same difference with each identity mapped to the element the caller lists (for the
    /// controller: the object's `NSManagedObjectID`).
    func summaryDifference<Element>(
        oldStarts: [Int], newStarts: [Int], element: (ID) -> Element
    ) -> CollectionDifference<Element> {
        var changes: [CollectionDifference<Element>.Change] = []
        changes.reserveCapacity(objectChanges.count * 2)
        for change in objectChanges where change.kind != .update {
            let oldOffset = change.oldAddress.map { oldStarts[$0.section] + $0.row }
            let newOffset = change.newAddress.map { newStarts[$0.section] + $0.row }
            let mapped = element(change.id)
            if let oldOffset {
                changes.append(.remove(offset: oldOffset, element: mapped, associatedWith: newOffset))
            }
            if let newOffset {
                changes.append(.insert(offset: newOffset, element: mapped, associatedWith: oldOffset))
            }
        }
        // Removals then insertions, each by offset: the order the difference keeps internally,
        // so its own validation sorts an already sorted list.
        changes.sort { lhs, rhs in
            switch (lhs, rhs) {
            case let (.remove(left, _, _), .remove(right, _, _)): left < right
            case let (.insert(left, _, _), .insert(right, _, _)): left < right
            case (.remove, .insert): true
            case (.insert, .remove): false
            }
        }
        guard let difference = CollectionDifference<Element>(changes) else {
            preconditionFailure("change batch does not form a valid difference")
        }
        return difference
    }
}
