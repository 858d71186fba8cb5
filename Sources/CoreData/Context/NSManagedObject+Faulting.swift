/// Faults: objects whose values are read from the store only when first touched.
extension NSManagedObject {
    func fireFaultIfNeeded() {
        guard faultFlag, let context = managedObjectContext else { return }
        context.fulfillFault(self)
    }

    /// Fills the object from `row`, resolving to-one IDs to objects of the same context.
    func apply(_ row: RowSnapshot, in context: NSManagedObjectContext) {
        committed = row
        var newValues: [String: Any] = [:]
        for property in entity.properties {
            if let relationship = property as? NSRelationshipDescription {
                if relationship.isToMany {
                    if let loaded = values[relationship.name] as? ToManyMembers, !faultFlag { newValues[relationship.name] = loaded }
                } else if let target = row.values[relationship.name] as? NSManagedObjectID {
                    newValues[relationship.name] = context.object(with: target)
                }
            } else if let value = row.values[property.name] {
                newValues[property.name] = value
            }
        }
        values = newValues
        faultFlag = false
    }

    /// Applies `row` underneath the object's unsaved changes, which stay as they were: a
    /// refresh or merge that keeps changes.
    func apply(_ row: RowSnapshot, keepingChangesIn context: NSManagedObjectContext) {
        let keys = changedKeys
        let pending = keys.map { ($0, values[$0]) }
        apply(row, in: context)
        for (key, value) in pending { values[key] = value }
        changedKeys = keys
    }

    /// Drops the values so they are read again on next access.
    func turnIntoFault() {
        willTurnIntoFault()
        values = [:]
        changedKeys = []
        faultFlag = true
        didTurnIntoFault()
    }

    /// The object's current state as a row, with relationships as IDs.
    func currentRow(version: Int64) -> RowSnapshot {
        fireFaultIfNeeded()
        var rowValues: [String: Any] = [:]
        for property in entity.properties where !property.isTransient {
            if let relationship = property as? NSRelationshipDescription {
                if !relationship.isToMany, let target = values[relationship.name] as? NSManagedObject {
                    rowValues[relationship.name] = target.objectID
                }
            } else if let value = values[property.name] {
                rowValues[property.name] = value
            }
        }
        return RowSnapshot(objectID: objectID, version: version, values: rowValues)
    }
}
