/// Relationship changes, keeping both sides consistent immediately (before any save), as Apple's
/// context does at the end of the event.
extension NSManagedObject {
    /// The loaded members of a to-many relationship, reading them on first use.
    func toManyMembers(forKey key: String) -> ToManyMembers {
        if let ordinal = propertyIndex.ordinals[key] { return toManyMembers(at: ordinal, forKey: key) }
        if let members = values[key] as? ToManyMembers { return members }
        let loaded = ToManyMembers(managedObjectContext?.loadToMany(key, of: self) ?? [])
        values[key] = loaded
        return loaded
    }

    /// `toManyMembers(forKey:)` for the relationship `key` at `ordinal`.
    func toManyMembers(at ordinal: Int, forKey key: String) -> ToManyMembers {
        if case .members(let members)? = values[ordinal: ordinal] { return members }
        let loaded = ToManyMembers(managedObjectContext?.loadToMany(key, of: self) ?? [])
        values[ordinal: ordinal] = .members(loaded)
        return loaded
    }

    /// The to-many relationship `key` at `ordinal` as key-value coding reads it, without
    /// notifications: `NSOrderedSet` for an ordered relationship, `NSSet` otherwise.
    func toManyValue(at ordinal: Int, forKey key: String) -> Any {
        let members = toManyMembers(at: ordinal, forKey: key).objects
        let isOrdered = unsafeDowncast(propertyIndex.properties[ordinal], to: NSRelationshipDescription.self).isOrdered
        return isOrdered ? NSOrderedSet(array: members) : NSSet(array: members)
    }

    /// The property at `ordinal` as `primitiveValue(forKey:)` reads it: the fault fires, a
    /// to-one's destination is resolved through the context, a to-many's members are an `NSSet`.
    func primitiveValue(at ordinal: Int) -> Any? {
        ConcurrencyDebug.check(self)
        fireFaultIfNeeded()
        switch values[ordinal: ordinal] {
        case .stored(let stored)?:
            let property = propertyIndex.properties[ordinal]
            // A context-less object (deleted and saved) names a destination it cannot find.
            if case .objectID(let id) = stored, property is NSRelationshipDescription { return managedObjectContext?.object(with: id) }
            return RowValues.foundationValue(stored, of: property)
        case .members(let members)?: return NSSet(array: members.objects)
        case .object(let object)?: return object
        case nil: return nil
        }
    }

    /// The destination of the to-one `key`, without notifications: the fault fires first.
    func toOneDestination(forKey key: String) -> NSManagedObject? {
        fireFaultIfNeeded()
        return propertyIndex.ordinals[key].flatMap { destination(in: values[ordinal: $0]) }
    }

    /// The object a to-one slot names: the registered object of its ID, or a fault, as
    /// `object(with:)` gives it; nil for a slot that names none (or holds an attribute).
    func destination(in slot: ObjectValues.Slot?) -> NSManagedObject? {
        switch slot {
        case .stored(.objectID(let id))?: managedObjectContext?.object(with: id)
        case .object(let object)?: object
        default: nil
        }
    }

    /// Whether a to-one slot names `object`, without resolving it to an object.
    func slot(_ slot: ObjectValues.Slot?, names object: NSManagedObject) -> Bool {
        switch slot {
        case .stored(.objectID(let id))?: id.name == object.registrationName
        case .object(let held)?: held === object
        default: false
        }
    }

    /// The slot that holds `destination` as one of this object's to-ones: its ID when this
    /// object's context can find it by that ID, otherwise the object itself.
    func toOneSlot(for destination: NSManagedObject?) -> ObjectValues.Slot? {
        guard let destination else { return nil }
        if let context = managedObjectContext, destination.managedObjectContext === context { return .stored(.objectID(destination.objectID)) }
        return .object(destination)
    }

    // Every change below fires a fault first, as `setToOne` does: firing replaces a fault's
    // values with its row, so a to-many changed on a fault would silently lose the change.

    /// Whether a to-many relationship is still a fault (not yet read).
    func isToManyFault(_ key: String) -> Bool { !(values[key] is ToManyMembers) }

    func setToOne(_ newValue: NSManagedObject?, forKey key: String, maintainingInverse: Bool) {
        guard let ordinal = propertyIndex.ordinals[key] else { return }
        setToOne(newValue, at: ordinal, maintainingInverse: maintainingInverse)
    }

    /// Sets the to-one at `ordinal` (without notifications); with `maintainingInverse`, the
    /// old and new destinations' inverse sides follow.
    func setToOne(_ newValue: NSManagedObject?, at ordinal: Int, maintainingInverse: Bool) {
        let relationship = unsafeDowncast(propertyIndex.properties[ordinal], to: NSRelationshipDescription.self)
        let key = relationship.name
        if let newValue, refusesExternal(newValue, forKey: key) { return }
        fireFaultIfNeeded()
        let slot = values[ordinal: ordinal]
        if newValue.map({ self.slot(slot, names: $0) }) ?? (slot == nil) { return }
        let inverse = maintainingInverse ? relationship.inverseRelationship : nil
        // The old destination is resolved only when its inverse side must follow.
        let old = inverse == nil ? nil : destination(in: slot)
        willChangeStoredValue(forKey: key)
        values[ordinal: ordinal] = toOneSlot(for: newValue)
        noteChange(key, ordinal: ordinal)
        guard let inverse else { return }
        if let old { old.unlink(self, fromInverse: inverse) }
        if let newValue { newValue.link(self, toInverse: inverse) }
    }

    func addToMany(_ object: NSManagedObject, forKey key: String, at index: Int?) {
        if refusesExternal(object, forKey: key) { return }
        guard editMembers(forKey: key, .insert(object, at: index)) else { return }
        if let inverse = entity.relationshipsByName[key]?.inverseRelationship { object.link(self, toInverse: inverse) }
    }

    func removeFromToMany(_ object: NSManagedObject, forKey key: String) {
        guard editMembers(forKey: key, .remove(object)) else { return }
        if let inverse = entity.relationshipsByName[key]?.inverseRelationship { object.unlink(self, fromInverse: inverse) }
    }

    func replaceToMany(forKey key: String, with objects: [NSManagedObject]) {
        guard let ordinal = propertyIndex.ordinals[key] else { return }
        replaceToMany(at: ordinal, with: objects)
    }

    /// Makes `objects`, in order, the members of the to-many at `ordinal` (without
    /// notifications), the members' inverse sides following; one look-up of the relationship
    /// for the whole change, not one by name per member.
    func replaceToMany(at ordinal: Int, with objects: [NSManagedObject]) {
        let relationship = unsafeDowncast(propertyIndex.properties[ordinal], to: NSRelationshipDescription.self)
        let key = relationship.name
        // All or nothing: one foreign member leaves the relationship as it was.
        if objects.contains(where: { refusesExternal($0, forKey: key) }) { return }
        fireFaultIfNeeded()
        let inverse = relationship.inverseRelationship
        let keep = Set(objects.map(ObjectIdentifier.init))
        for old in toManyMembers(at: ordinal, forKey: key).objects where !keep.contains(ObjectIdentifier(old)) {
            if editMembers(at: ordinal, forKey: key, .remove(old)), let inverse { old.unlink(self, fromInverse: inverse) }
        }
        for (position, object) in objects.enumerated() {
            if editMembers(at: ordinal, forKey: key, .insert(object, at: position)), let inverse { object.link(self, toInverse: inverse) }
        }
        // Reorder to the given order when members were already present.
        editMembers(at: ordinal, forKey: key, .reorder(objects))
    }

    /// The one place a to-many relationship's members change (on this side only): the fault
    /// fires, the undo recording sees the members as they were, `edit` applies in place and
    /// the change is noted. False, touching nothing, when `edit` would change nothing.
    @discardableResult
    func editMembers(forKey key: String, _ edit: MembersEdit) -> Bool {
        editMembers(at: propertyIndex.ordinals[key], forKey: key, edit)
    }

    /// `editMembers(forKey:_:)` for the relationship `key` at `ordinal`, when the caller knows
    /// it (nil for a key that names no property).
    @discardableResult
    func editMembers(at ordinal: Int?, forKey key: String, _ edit: MembersEdit) -> Bool {
        fireFaultIfNeeded()
        let members = ordinal.map { toManyMembers(at: $0, forKey: key) } ?? toManyMembers(forKey: key)
        guard edit.changes(members) else { return false }
        willChangeStoredValue(forKey: key)
        edit.apply(to: members)
        noteChange(key, ordinal: ordinal)
        return true
    }

    /// Makes `source` appear on this object's side of `inverse`.
    private func link(_ source: NSManagedObject, toInverse inverse: NSRelationshipDescription) {
        if inverse.isToMany {
            editMembers(forKey: inverse.name, .insert(source, at: nil))
        } else {
            // A to-one inverse: detach whatever the other side pointed at before.
            let previous = toOneDestination(forKey: inverse.name)
            if previous === source { return }
            if let previous, let back = inverse.inverseRelationship {
                if back.isToMany { previous.removeFromToMany(self, forKey: back.name) } else { previous.setToOne(nil, forKey: back.name, maintainingInverse: false) }
            }
            setToOne(source, forKey: inverse.name, maintainingInverse: false)
        }
    }

    /// Removes `source` from this object's side of `inverse`.
    private func unlink(_ source: NSManagedObject, fromInverse inverse: NSRelationshipDescription) {
        if inverse.isToMany {
            editMembers(forKey: inverse.name, .remove(source))
        } else if let ordinal = propertyIndex.ordinals[inverse.name] {
            fireFaultIfNeeded()
            if slot(values[ordinal: ordinal], names: source) { setToOne(nil, at: ordinal, maintainingInverse: false) }
        }
    }
}
