/// Delivery: hand a change batch to the delegate (Apple's callbacks, in Apple's order) and to
/// the `changes` subscribers.
extension FetchedResultsState {
    /// Reports `batch`, which turned the snapshot whose sections had `oldNames` starting at
    /// `oldStarts` into `new` (installed).
    func deliver(_ batch: ChangeBatch<ResultIdentity>, oldNames: [String], oldStarts: [Int], to new: Snapshot) {
        guard !batch.isEmpty else { return }
        cache?.invalidate()
        var batch = batch
        if !hasSectionKeyPath {
            // Without a section key path the one unnamed section always exists, empty or not.
            batch.sectionChanges = []
        }
        let delegate = self.delegate
        let controller = erasedController
        let wantsSnapshot = subscribers.isActive || (delegate != nil && delegateForms.contains(.snapshot))
        let wantsDifference = subscribers.isActive || (delegate != nil && delegateForms.contains(.difference))
        let summary = wantsSnapshot ? contentSnapshot(new, reloading: batch) : nil
        let difference = wantsDifference
            ? batch.summaryDifference(oldStarts: oldStarts, newStarts: new.sectionStarts) {
                $0.object.objectID
            }
            : nil
        if let summary, let difference, subscribers.isActive {
            subscribers.yield(FetchedResultsChange(snapshot: summary, difference: difference))
        }

        guard let delegate, let controller else { return }
        if let summary, delegateForms.contains(.snapshot) {
            delegate.controller(controller, didChangeContentWith: summary)
            // Still set: the delegate implements the snapshot form, which replaces the rest.
            if delegateForms.contains(.snapshot) { return }
        }
        delegate.controllerWillChangeContent(controller)
        for change in batch.sectionChanges {
            let info = change.kind == .delete
                ? deletedSectionInfo(named: oldNames[change.index], at: change.index, in: batch)
                : sectionInfo(new.sections[change.index])
            delegate.controller(
                controller, didChange: info, atSectionIndex: change.index,
                for: NSFetchedResultsChangeType(change.kind))
        }
        for change in batch.objectChanges {
            delegate.controller(
                controller, didChange: change.id.object,
                at: change.kind == .insert ? nil : change.oldAddress.map(IndexPath.init),
                for: NSFetchedResultsChangeType(change.kind),
                newIndexPath: change.kind == .delete ? nil : change.newAddress.map(IndexPath.init))
        }
        if let difference, delegateForms.contains(.difference) {
            delegate.controller(controller, didChangeContentWith: difference)
        }
        delegate.controllerDidChangeContent(controller)
    }

    /// After `performFetch()`: the snapshot form only, as Apple does.
    func deliverInitialSnapshot() {
        let summary = subscribers.isActive || (delegate != nil && delegateForms.contains(.snapshot))
            ? contentSnapshot(snapshot!, reloading: ChangeBatch()) : nil
        if let summary, subscribers.isActive {
            subscribers.yield(FetchedResultsChange(snapshot: summary, difference: CollectionDifference([])!))
        }
        if let summary, let delegate, let controller = erasedController, delegateForms.contains(.snapshot) {
            delegate.controller(controller, didChangeContentWith: summary)
        }
    }

    /// The content as section names and object IDs, with the batch's content changes to reload.
    func contentSnapshot(_ snapshot: Snapshot, reloading batch: ChangeBatch<ResultIdentity>) -> NSDiffableDataSourceSnapshotReference {
        var sections = snapshot.sections.map { section in
            (section.name, section.rows.map { $0.id.object.objectID })
        }
        if !hasSectionKeyPath, sections.isEmpty {
            sections = [("", [])]
        }
        let reloaded = batch.objectChanges.compactMap { change in
            change.contentChanged && (change.kind == .update || change.kind == .move) ? change.id.object.objectID : nil
        }
        return NSDiffableDataSourceSnapshotReference(sections: sections, reloaded: reloaded)
    }

    /// A deleted section as it was: every row it held is in the batch with its old address.
    private func deletedSectionInfo(named name: String, at index: Int, in batch: ChangeBatch<ResultIdentity>) -> FetchedResultsSectionInfo {
        let rows = batch.objectChanges
            .compactMap { change in change.oldAddress.flatMap { $0.section == index ? ($0.row, change.id.object) : nil } }
            .sorted { $0.0 < $1.0 }
            .map(\.1)
        return FetchedResultsSectionInfo(name: name, indexTitle: indexTitle(forSectionName: name), objects: rows)
    }

    /// The live section info for a snapshot section, titled through the delegate.
    func sectionInfo(_ section: Snapshot.Section) -> FetchedResultsSectionInfo {
        FetchedResultsSectionInfo(name: section.name, indexTitle: indexTitle(forSectionName: section.name), following: self, rows: section.rows)
    }

    /// The delegate's title for a section name, or Apple's default (capitalized first letter).
    func indexTitle(forSectionName name: String) -> String? {
        if let delegate, let controller = erasedController {
            return delegate.controller(controller, sectionIndexTitleForSectionName: name)
        }
        return name.first.map { String($0).uppercased() }
    }
}
