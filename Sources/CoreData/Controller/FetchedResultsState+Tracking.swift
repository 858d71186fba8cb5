/// Change tracking: turn the context's objects-did-change notification into a change batch.
extension FetchedResultsState {
    /// Handles one objects-did-change notification, on the context's queue.
    ///
    /// Known scope (inserted/updated/deleted/refreshed sets): each changed object is evaluated
    /// against the predicate in memory and placed by binary search, O(k log n). Unknown scope
    /// (all objects invalidated, a refresh of most objects, a limited or closure-sorted request):
    /// refetch and diff in linear time.
    func contextObjectsDidChange(_ userInfo: [AnyHashable: Any]) {
        guard let count = snapshot?.count, let request = activeRequest else { return }
        let inserted = Set(ManagedValueNormalizer.objects(in: userInfo[NSInsertedObjectsKey]))
        let updated = Set(ManagedValueNormalizer.objects(in: userInfo[NSUpdatedObjectsKey]))
        let deleted = Set(ManagedValueNormalizer.objects(in: userInfo[NSDeletedObjectsKey]))
        let refreshed = Set(ManagedValueNormalizer.objects(in: userInfo[NSRefreshedObjectsKey]))
        let edited = updated.union(refreshed)

        let unknownScope = userInfo[NSInvalidatedAllObjectsKey] != nil
            || refreshed.count > Swift.max(64, count / 2)
        if unknownScope || !ordering.isIncremental || request.fetchLimit > 0 || request.fetchOffset > 0 {
            // Changes to other entities cannot move a result unless a relationship path reaches it.
            let relevant = unknownScope || !refreshPaths.isEmpty
                || inserted.union(edited).union(deleted).contains(where: isOfFetchedEntity)
            if relevant { refetchAndDiff(contentChanged: Set(edited.map(ResultIdentity.init))) }
            return
        }
        let changes = rowChanges(inserted: inserted, edited: edited, deleted: deleted, request: request)
        guard !changes.isEmpty else { return }

        // Nothing of the old snapshot but its section names and offsets outlives the mutation,
        // so the engine edits the one copy in place: holding the old rows or identity map here
        // would copy them, O(n), on every change. Deleted sections' infos are rebuilt from the
        // batch, which reports every row they held.
        let oldNames = snapshot!.sections.map(\.name)
        let oldStarts = snapshot!.sectionStarts
        let batch = snapshot!.apply(changes)
        snapshotDidChange()
        deliver(batch, oldNames: oldNames, oldStarts: oldStarts, to: snapshot!)
    }

    /// The engine's input: every object whose membership, place or content may have changed.
    private func rowChanges(
        inserted: Set<NSManagedObject>, edited: Set<NSManagedObject>, deleted: Set<NSManagedObject>,
        request: NSFetchRequest<NSFetchRequestResult>
    ) -> [RowChange<ResultIdentity, ResultSortKey>] {
        let snapshot = self.snapshot!
        var changes: [ResultIdentity: RowChange<ResultIdentity, ResultSortKey>] = [:]
        func evaluate(_ object: NSManagedObject, contentChanged: Bool) {
            let identity = ResultIdentity(object)
            let belongs = !object.isDeleted && object.managedObjectContext === context
                && isOfFetchedEntity(object) && matches(object, request.predicate)
            if belongs {
                let previous = changes[identity]?.contentChanged ?? false
                let row = readAheadRow(of: object)
                let key = ordering.key(for: object, readAhead: row)
                changes[identity] = .present(
                    identity, key: key, section: sectionNaming.name(for: object, readAhead: row, sortKey: key, ordering: ordering),
                    contentChanged: contentChanged || previous)
            } else if snapshot.entries[identity] != nil {
                changes[identity] = .absent(identity)
            }
        }
        for object in deleted where snapshot.entries[ResultIdentity(object)] != nil {
            changes[ResultIdentity(object)] = .absent(ResultIdentity(object))
        }
        for object in inserted { evaluate(object, contentChanged: false) }
        for object in edited { evaluate(object, contentChanged: true) }

        // Objects reached through relationships: their referrers may move or need redrawing.
        if !refreshPaths.isEmpty {
            let related = edited.union(inserted).union(deleted)
            // The keys an edit changed; unknown for new, deleted and refreshed objects, and for
            // objects a merge refreshed as faults.
            func changedKeys(_ object: NSManagedObject) -> Set<String>? {
                guard edited.contains(object), !inserted.contains(object), !deleted.contains(object),
                      !object.eventChangedKeys.isEmpty else { return nil }
                return object.eventChangedKeys.names
            }
            for path in refreshPaths {
                for referrer in path.referrers(referring: related, in: snapshot, changedKeys: changedKeys) {
                    let identity = ResultIdentity(referrer)
                    if changes[identity] == nil {
                        evaluate(referrer, contentChanged: path.refreshesContent)
                    } else if changes[identity]?.placement != nil, path.refreshesContent {
                        // Already placed in this pass: only its redraw may still be owed.
                        changes[identity]?.contentChanged = true
                    }
                }
            }
        }
        return Array(changes.values)
    }

    /// Refetches and reports the difference to the current snapshot.
    func refetchAndDiff(contentChanged: Set<ResultIdentity>) {
        guard let old = snapshot, let request = activeRequest else { return }
        let new: Snapshot
        do {
            new = try fetchSnapshot(request)
        } catch {
            // Nothing sensible to report against; keep the old content (Apple logs and carries on).
            return
        }
        let batch = old.difference(to: new, contentChanged: contentChanged)
        install(new)
        deliver(batch, oldNames: old.sections.map(\.name), oldStarts: old.sectionStarts, to: new)
    }

    /// Whether `object` is of the fetched entity (or a subentity, when the request includes them).
    func isOfFetchedEntity(_ object: NSManagedObject) -> Bool {
        guard let entity else { return false }
        if object.entity === entity || object.entity.name == entity.name { return true }
        return activeRequest?.includesSubentities != false && object.entity.isKindOf(entity: entity)
    }

    private func matches(_ object: NSManagedObject, _ predicate: NSPredicate?) -> Bool {
        guard let predicate else { return true }
        return predicate.evaluate(with: object)
    }
}
