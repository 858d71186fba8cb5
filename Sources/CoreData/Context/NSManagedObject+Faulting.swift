/// Faults: objects whose values are read from the store only when first touched.
extension NSManagedObject {
    func fireFaultIfNeeded() {
        guard faultFlag, let context = managedObjectContext else { return }
        context.fulfillFault(self)
    }

    /// Fills the object from `row`, sharing the row's values as they are (same ordinals, same
    /// stored form, to-one destinations as IDs the context resolves when they are read).
    func apply(_ row: RowSnapshot, in context: NSManagedObjectContext) {
        if fillStatelessFault(from: row) { return }
        committed = row
        var newValues = ObjectValues(row: row.values)
        if !faultFlag {
            for ordinal in newValues.index.toManyOrdinals {
                if case .members(let loaded)? = values[ordinal: ordinal] { newValues[ordinal: ordinal] = .members(loaded) }
            }
        }
        values = newValues
        faultFlag = false
        unreadRowError = nil
    }

    /// Applies `row` underneath the object's unsaved changes, which stay as they were: a
    /// refresh or merge that keeps changes. The properties whose values moved join the current
    /// event's changes, so observers can tell which keys of a refreshed object changed.
    func apply(_ row: RowSnapshot, keepingChangesIn context: NSManagedObjectContext) {
        let before = values
        let keys = changedKeys
        let pending = keys.map { ($0, values[$0]) }
        apply(row, in: context)
        for (key, value) in pending { values[key] = value }
        changedKeys = keys
        eventChangedKeys.formUnion(keysDiffering(from: before))
    }

    /// The properties whose values differ from `old` (an earlier copy of `values`): what a
    /// merge changed, so observers can tell which keys of a merged object moved.
    func keysDiffering(from old: ObjectValues) -> Set<String> {
        Set(Set(old.keys).union(values.keys).filter { key in
            switch (old[key], values[key]) {
            case let (before as NSManagedObject, after as NSManagedObject): before !== after
            case let (before as ToManyMembers, after as ToManyMembers): before !== after
            case let (before, after): !NSPropertyDescription.valuesEqual(before, after)
            }
        })
    }

    /// Drops the values so they are read again on next access.
    func turnIntoFault() {
        willTurnIntoFault()
        values.removeAll()
        changedKeys.removeAll()
        faultFlag = true
        unreadRowError = nil
        didTurnIntoFault()
    }

    /// The object's current state as a row, with relationships as IDs.
    func currentRow(version: Int64) -> RowSnapshot {
        fireFaultIfNeeded()
        return RowSnapshot(objectID: objectID, version: version, values: values.rowValues)
    }
}
