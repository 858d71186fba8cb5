/// Change tracking: what changed since the last `processPendingChanges()`, delete propagation,
/// and the objects-did-change notification the fetched results controller follows.
extension NSManagedObjectContext {
    /// Called by an object whenever one of its properties changes.
    func objectDidChange(_ object: NSManagedObject) {
        guard !object.insertedFlag, !object.deletedFlag else {
            if object.insertedFlag { unprocessedInserted.insert(object) }
            scheduleProcessing()
            return
        }
        changedSet.insert(object)
        unprocessedUpdated.insert(object)
        scheduleProcessing()
    }

    /// Runs `processPendingChanges()` at the end of the current event on the context's queue, as
    /// Apple's contexts do at the end of a run-loop turn.
    ///
    /// Only scheduled from the context's own queue: a caller elsewhere (misuse by Apple's rules
    /// too) gets its changes processed at the next save, fetch or `perform` instead of racing
    /// the queue over the change-tracking sets.
    func scheduleProcessing() {
        // The flag first: every change of every object calls this, and `isOnQueue` asks the
        // queue's watchdog.
        guard !isProcessingScheduled, isOnQueue else { return }
        isProcessingScheduled = true
        queue.async { [weak self] in self?.processPendingChanges() }
    }

    /// Applies delete rules and posts `NSManagedObjectContextObjectsDidChange` for the changes
    /// made since the last call; with an undo manager, registers them as one undo step.
    public func processPendingChanges() {
        isProcessingScheduled = false
        propagateDeletes()
        // New objects, and deleted ones brought back (by undo or re-insertion).
        let inserted = unprocessedInserted.filter { !$0.deletedFlag }
        let deleted = unprocessedDeleted
        let updated = unprocessedUpdated.subtracting(inserted).subtracting(deleted)
        unprocessedInserted = []
        unprocessedUpdated = []
        unprocessedDeleted = []
        // Objects inserted and deleted again before saving simply vanish.
        for object in deletedSet where object.insertedFlag {
            insertedSet.remove(object)
            deletedSet.remove(object)
            registered.remove(object)
        }
        undoRecording?.closeStep()
        guard !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty else { return }
        postObjectsDidChange(inserted: inserted.objects, updated: updated.objects, deleted: deleted.objects)
    }

    func postObjectsDidChange(inserted: Set<NSManagedObject>, updated: Set<NSManagedObject>, deleted: Set<NSManagedObject>,
                              refreshed: Set<NSManagedObject> = [], invalidatedAll: [NSManagedObjectID]? = nil) {
        var userInfo: [AnyHashable: Any] = [:]
        if !inserted.isEmpty { userInfo[NSInsertedObjectsKey] = inserted }
        if !updated.isEmpty { userInfo[NSUpdatedObjectsKey] = updated }
        if !deleted.isEmpty { userInfo[NSDeletedObjectsKey] = deleted }
        if !refreshed.isEmpty { userInfo[NSRefreshedObjectsKey] = refreshed }
        if let invalidatedAll { userInfo[NSInvalidatedAllObjectsKey] = invalidatedAll }
        NotificationCenter.default.post(name: .NSManagedObjectContextObjectsDidChange, object: self, userInfo: userInfo)
        // The event is over: `changedValuesForCurrentEvent()` starts afresh.
        for object in inserted { object.eventChangedKeys.removeAll() }
        for object in updated { object.eventChangedKeys.removeAll() }
        for object in refreshed { object.eventChangedKeys.removeAll() }
    }

    /// Runs each newly deleted object's delete rules: nullify clears the inverse side, cascade
    /// deletes the destination, deny is checked at save, no action leaves dangling references.
    private func propagateDeletes() {
        var pending = Array(unprocessedDeleted)
        var handled = Set<ObjectIdentifier>()
        while let object = pending.popLast() {
            guard handled.insert(ObjectIdentifier(object)).inserted else { continue }
            object.prepareForDeletion()
            for relationship in object.entity.relationshipsByName.values {
                let related: [NSManagedObject]
                if relationship.isToMany {
                    related = object.toManyMembers(forKey: relationship.name).objects
                } else {
                    related = (object.primitiveValue(forKey: relationship.name) as? NSManagedObject).map { [$0] } ?? []
                }
                switch relationship.deleteRule {
                case .cascadeDeleteRule:
                    for target in related where !target.deletedFlag {
                        delete(target)
                        pending.append(target)
                    }
                    fallthrough
                case .nullifyDeleteRule:
                    guard let inverse = relationship.inverseRelationship else { continue }
                    for target in related {
                        if inverse.isToMany {
                            target.editMembers(forKey: inverse.name, .remove(object))
                        } else if target.primitiveValue(forKey: inverse.name) as? NSManagedObject === object {
                            target.setToOne(nil, forKey: inverse.name, maintainingInverse: false)
                        }
                    }
                case .denyDeleteRule, .noActionDeleteRule:
                    continue
                }
            }
        }
    }
}
