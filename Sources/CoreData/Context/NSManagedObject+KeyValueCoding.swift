/// Key-value coding, implemented by the object itself since Linux has no Objective-C runtime.
extension NSManagedObject {
    /// The value of a property: attributes as Foundation values (`NSNumber` for numbers and
    /// booleans), to-one relationships as the related object, to-many as `NSSet` or
    /// `NSOrderedSet`. The object's own keys (`entity`, `objectID`, `isInserted`, ...) and the
    /// subclass's `@KeyValueCoded` properties answer too; a `@KeyValueCoded` property named
    /// like a transient attribute replaces it. An unknown key returns nil and makes the next
    /// save throw.
    public func value(forKey key: String) -> Any? {
        ConcurrencyDebug.check(self)
        if let keyRecorder { return probeValue(forKey: key, recorder: keyRecorder) }
        guard let property = entity.propertiesByName[key] else {
            if let reader = unmodelledReader(forKey: key) { return reader(self) }
            noteUnknownKey(key)
            return nil
        }
        if property.isTransient, let swiftProperty = KeyValueCodedLookup.accessor(forKey: key, in: type(of: self)) {
            return swiftProperty.read(self)
        }
        if property.isTransient, let fetched = property as? NSFetchedPropertyDescription {
            return fetchedPropertyValue(fetched)
        }
        willAccessValue(forKey: key)
        defer { didAccessValue(forKey: key) }
        if let relationship = property as? NSRelationshipDescription, relationship.isToMany {
            let members = toManyMembers(forKey: key).objects
            return relationship.isOrdered ? NSOrderedSet(array: members) : NSSet(array: members)
        }
        return primitiveValue(forKey: key)
    }

    /// Sets a property, keeping inverse relationships consistent at once and recording the
    /// change. A settable `@KeyValueCoded` property is set through its setter.
    public func setValue(_ value: Any?, forKey key: String) {
        ConcurrencyDebug.check(self)
        let property = entity.propertiesByName[key]
        if property?.isTransient ?? true, let write = KeyValueCodedLookup.accessor(forKey: key, in: type(of: self))?.write {
            return write(self, value)
        }
        guard let property else {
            noteUnknownKey(key)
            return
        }
        willChangeValue(forKey: key)
        defer { didChangeValue(forKey: key) }
        if let relationship = property as? NSRelationshipDescription {
            if relationship.isToMany {
                replaceToMany(forKey: key, with: ManagedValueNormalizer.objects(in: value))
            } else {
                setToOne(value as? NSManagedObject, forKey: key, maintainingInverse: true)
            }
        } else if property is NSAttributeDescription {
            changeAttribute(forKey: key) { values[key] = value }
        }
    }

    /// Follows a dotted key path; a to-many step gathers the values of its members.
    public func value(forKeyPath keyPath: String) -> Any? {
        value(alongKeys: keyPath.split(separator: ".").map(String.init)[...])
    }

    /// `value(forKeyPath:)` with the path already split, for callers that read one path often.
    func value(alongKeys keys: ArraySlice<String>) -> Any? {
        Self.value(of: self, along: keys)
    }

    /// `value(alongKeys:)` that reads an attribute of a fault from the row its fetch left in the
    /// context, without firing the fault: what a controller does for every fetched object.
    func valueWithoutFiring(alongKeys keys: ArraySlice<String>) -> Any? {
        if keys.count == 1, let key = keys.first, let row = readAheadRow {
            // A row holds attributes, and to-one relationships as IDs: those need the object.
            if let value = row.values[key] {
                if !(type(of: value) is NSManagedObjectID.Type) { return value }
            } else if let attribute = entity.attributesByName[key], !attribute.isTransient {
                // Transient values are not in rows; a subclass may compute them.
                return nil
            }
        }
        return value(alongKeys: keys)
    }

    /// Sets the value at the end of a dotted key path, following to-one relationships; does nothing if one is nil.
    public func setValue(_ value: Any?, forKeyPath keyPath: String) {
        var parts = keyPath.split(separator: ".").map(String.init)
        guard let last = parts.popLast() else { return }
        let target = parts.isEmpty ? self : self.value(forKeyPath: parts.joined(separator: ".")) as? NSManagedObject
        target?.setValue(value, forKey: last)
    }

    /// Sets several values at once; `NSNull` clears a property.
    public func setValuesForKeys(_ keyedValues: [String: Any]) {
        for (key, value) in keyedValues { setValue(value is NSNull ? nil : value, forKey: key) }
    }

    /// The values of `keys`, with `NSNull` for nil.
    public func dictionaryWithValues(forKeys keys: [String]) -> [String: Any] {
        var result: [String: Any] = [:]
        for key in keys { result[key] = value(forKey: key) ?? NSNull() }
        return result
    }

    private static func value(of object: Any?, along keys: ArraySlice<String>) -> Any? {
        guard let key = keys.first else { return object }
        let rest = keys.dropFirst()
        if key == "@count" {
            return (object as? NSSet)?.count ?? (object as? NSOrderedSet)?.count ?? (object as? [Any])?.count
        }
        if let object = object as? NSManagedObject { return value(of: object.value(forKey: key), along: rest) }
        if let members = (object as? NSSet)?.allObjects ?? (object as? NSOrderedSet)?.array {
            return NSSet(array: members.compactMap { value(of: $0, along: keys) })
        }
        if let dictionary = object as? [String: Any] { return value(of: dictionary[key], along: rest) }
        return nil
    }

    /// A live set: changes made to it change the relationship.
    public func mutableSetValue(forKey key: String) -> NSMutableSet {
        RelationshipSetProxy(owner: self, key: key)
    }

    /// A live ordered set: changes made to it change the ordered relationship.
    public func mutableOrderedSetValue(forKey key: String) -> NSMutableOrderedSet {
        RelationshipOrderedSetProxy(owner: self, key: key)
    }

    // MARK: Primitive access: no change tracking, no inverse maintenance

    /// The stored value without access notifications; to-many relationships as `NSSet`.
    public func primitiveValue(forKey key: String) -> Any? {
        if let ordinal = propertyIndex.ordinals[key] { return primitiveValue(at: ordinal) }
        ConcurrencyDebug.check(self)
        fireFaultIfNeeded()
        let value = values[key]
        if let members = ToManyMembers.of(value) { return NSSet(array: members.objects) }
        return value
    }

    /// Stores `value` for `key` without tracking the change; a hand-written setter's following `didChangeValue(forKey:)` records it.
    public func setPrimitiveValue(_ value: Any?, forKey key: String) {
        ConcurrencyDebug.check(self)
        fireFaultIfNeeded()
        willChangeStoredValue(forKey: key)
        if let ordinal = propertyIndex.ordinals[key], let object = unwrapOptional(value) as? NSManagedObject {
            values[ordinal: ordinal] = toOneSlot(for: object)
        } else {
            values[key] = value
        }
        // Not a change by itself; the `didChangeValue(forKey:)` that follows in a hand-written
        // setter records it.
        if entity.propertiesByName[key] != nil { primitivelyChangedKeys.insert(key) }
    }

    // MARK: Typed access used by `@Managed` properties

    /// The value for `key` as `T`: nil becomes nil for optionals and zero for numbers and
    /// booleans, as Xcode-generated scalar properties behave. What a `@Managed` property reads
    /// where it has no binding (in a generic class); see `managedValue(for:)`.
    ///
    /// Inlinable, so that it is specialised for each `@Managed` property's type in the module
    /// that declares the property. Unspecialised, every read looked up the metadata of
    /// `Optional<T>` in the runtime's shared cache (a lock two reading threads contend for) and
    /// compared `T` with each supported type at run time.
    @inlinable
    public func managedValue<T>(forKey key: String) -> T {
        typedValue(readForManagedAccess(forKey: key), forKey: key)
    }

    /// The value of the property `binding` is bound to, as `T`: what a `@Managed` getter calls.
    /// The binding finds the attribute's slot once per class, so the read is an array index.
    @inlinable
    public func managedValue<T>(for binding: ManagedPropertyBinding) -> T {
        typedValue(readForManagedAccess(binding), forKey: binding.key)
    }

    /// `read` as `T`, the typed conversion first.
    @inlinable
    func typedValue<T>(_ read: ManagedRead, forKey key: String) -> T {
        switch read {
        case .stored(let stored):
            // The typed path: the stored value converted straight to `T`.
            if let typed = TypedAttributeValue.make(stored, as: T.self) { return typed }
            return typed(foundationForm(of: stored, forKey: key), forKey: key)
        case .absent:
            if let typed = TypedAttributeValue.absent(as: T.self) { return typed }
            return typed(nil, forKey: key)
        case .related(let value):
            return typed(value, forKey: key)
        case .notAnAttribute:
            return keyValueCodedValue(forKey: key)
        }
    }

    /// What a `@Managed` read found, between one pair of access notifications.
    @usableFromInline
    enum ManagedRead {
        /// The attribute's stored value.
        case stored(StoredValue)
        /// The attribute has no value.
        case absent
        /// A relationship's value as key-value coding gives it: the related object or nil, or
        /// the members as `NSSet` or `NSOrderedSet`.
        case related(Any?)
        /// Not a stored attribute (a relationship read by name, a fetched property, an unknown
        /// key, a transient attribute a `@KeyValueCoded` property computes), or a key recorder
        /// listens: read through key-value coding, which sends the notifications.
        case notAnAttribute
    }

    /// The stored value of the attribute `key`, read between the access notifications. A nil
    /// value is `.absent`, answered without a second pass through key-value coding, so that a
    /// subclass overriding `willAccessValue(forKey:)` sees one call per read, as on Apple
    /// platforms.
    @usableFromInline
    func readForManagedAccess(forKey key: String) -> ManagedRead {
        readAttribute(at: attributeOrdinal(forKey: key), forKey: key)
    }

    /// `readForManagedAccess(forKey:)` at the slot `binding` found, relationships included: a
    /// to-one reads its slot's object, a to-many its loaded members, between one pair of
    /// access notifications, without a look-up by name.
    @usableFromInline
    func readForManagedAccess(_ binding: ManagedPropertyBinding) -> ManagedRead {
        switch slot(of: binding) {
        case .attribute(let ordinal): readAttribute(at: ordinal, forKey: binding.key)
        case .toOne(let ordinal): readRelationship(forKey: binding.key) { primitiveValue(at: ordinal) }
        case .toMany(let ordinal): readRelationship(forKey: binding.key) { toManyValue(at: ordinal, forKey: binding.key) }
        case .elsewhere: .notAnAttribute
        }
    }

    /// `read`'s value between the access notifications, as key-value coding reads it.
    private func readRelationship(forKey key: String, _ read: () -> Any?) -> ManagedRead {
        guard keyRecorder == nil else { return .notAnAttribute }
        ConcurrencyDebug.check(self)
        willAccessValue(forKey: key)
        defer { didAccessValue(forKey: key) }
        return .related(read())
    }

    private func readAttribute(at ordinal: Int?, forKey key: String) -> ManagedRead {
        guard let ordinal, keyRecorder == nil else { return .notAnAttribute }
        ConcurrencyDebug.check(self)
        willAccessValue(forKey: key)
        fireFaultIfNeeded()
        let slot = values[ordinal: ordinal]
        didAccessValue(forKey: key)
        if case .stored(let stored)? = slot { return .stored(stored) }
        return isComputedByKeyValueCodedProperty(ordinal: ordinal, key: key) ? .notAnAttribute : .absent
    }

    /// Whether the attribute at `ordinal` is transient and a `@KeyValueCoded` property of the
    /// subclass computes it: key-value coding reads that property, without notifications.
    private func isComputedByKeyValueCodedProperty(ordinal: Int, key: String) -> Bool {
        propertyIndex.properties[ordinal].isTransient && KeyValueCodedLookup.accessor(forKey: key, in: type(of: self)) != nil
    }

    /// `key`'s value through key-value coding as `T`: the read of anything that is not a
    /// stored attribute.
    @usableFromInline
    func keyValueCodedValue<T>(forKey key: String) -> T {
        typed(value(forKey: key), forKey: key)
    }

    /// The Foundation form of the attribute `key`'s stored value, for a `@Managed` type the
    /// typed conversion does not cover (a transformable value's class, `NSNumber`).
    @usableFromInline
    func foundationForm(of stored: StoredValue, forKey key: String) -> Any? {
        guard let attribute = propertyIndex.attributesByName[key] else { return nil }
        return stored.foundationValue(for: attribute)
    }

    /// The stored value for `key` as `T`, without access notifications: what a
    /// `@Managed var primitiveName` property reads (Apple's `@NSManaged var primitiveName`).
    public func primitiveManagedValue<T>(forKey key: String) -> T {
        typed(primitiveValue(forKey: key), forKey: key)
    }

    /// Stores `newValue` for `key` without change notifications or change tracking.
    public func setPrimitiveManagedValue<T>(_ newValue: T, forKey key: String) {
        setPrimitiveValue(unwrapOptional(newValue), forKey: key)
    }

    @usableFromInline
    func typed<T>(_ raw: Any?, forKey key: String) -> T {
        if let typed = raw as? T { return typed }
        if let zero = ZeroValue.zero(of: T.self) { return zero }
        preconditionFailure("CoreData: \(entity.name ?? "").\(key) holds \(raw.map { "\(type(of: $0))" } ?? "nil"), not \(T.self)")
    }

    /// Sets `key` from a typed value: what a `@Managed` property's setter calls where it has no
    /// binding (in a generic class); see `setManagedValue(_:for:)`.
    ///
    /// Inlinable for the reason `managedValue(forKey:)` is: specialised for the property's
    /// type, the conversion to the stored form is one branch, with no metadata looked up.
    @inlinable
    public func setManagedValue<T>(_ newValue: T, forKey key: String) {
        if let form = TypedAttributeValue.storedForm(of: newValue),
           setStoredValueForTypedWrite(form.stored, from: form.source, at: attributeOrdinal(forKey: key), forKey: key) { return }
        setValueThroughKeyValueCoding(newValue, forKey: key)
    }

    /// Sets the property `binding` is bound to from a typed value: what a `@Managed` setter
    /// calls. The binding finds the attribute's slot once per class.
    @inlinable
    public func setManagedValue<T>(_ newValue: T, for binding: ManagedPropertyBinding) {
        if let form = TypedAttributeValue.storedForm(of: newValue),
           setStoredValueForTypedWrite(form.stored, from: form.source, at: attributeOrdinal(of: binding), forKey: binding.key) { return }
        setValue(newValue, through: binding)
    }

    /// Sets a relationship at the slot `binding` found, between one pair of change
    /// notifications, without a look-up by name: what a `@Managed` setter does for anything
    /// the typed attribute write does not take. Anything else goes through key-value coding.
    @usableFromInline
    func setValue<T>(_ newValue: T, through binding: ManagedPropertyBinding) {
        let key = binding.key
        let value = unwrapOptional(newValue)
        guard keyRecorder == nil else { return setValue(value, forKey: key) }
        switch slot(of: binding) {
        case .toOne(let ordinal):
            ConcurrencyDebug.check(self)
            willChangeValue(forKey: key)
            defer { didChangeValue(forKey: key) }
            setToOne(value as? NSManagedObject, at: ordinal, maintainingInverse: true)
        case .toMany(let ordinal):
            ConcurrencyDebug.check(self)
            willChangeValue(forKey: key)
            defer { didChangeValue(forKey: key) }
            replaceToMany(at: ordinal, with: ManagedValueNormalizer.objects(in: value))
        case .attribute, .elsewhere:
            setValue(value, forKey: key)
        }
    }

    /// Sets the attribute `key`, at `ordinal`, to `stored`, given as `source`, with the
    /// bookkeeping `setValue(_:forKey:)` does but no boxing or normalisation; false, changing
    /// nothing, for a key that is not an attribute (nil `ordinal`) or does not take that type,
    /// and while a key recorder listens.
    @usableFromInline
    func setStoredValueForTypedWrite(_ stored: StoredValue?, from source: TypedAttributeValue.Source, at ordinal: Int?, forKey key: String) -> Bool {
        guard keyRecorder == nil, let ordinal,
              TypedAttributeValue.accepts(unsafeDowncast(propertyIndex.properties[ordinal], to: NSAttributeDescription.self).attributeType, from: source)
        else { return false }
        ConcurrencyDebug.check(self)
        willChangeValue(forKey: key)
        defer { didChangeValue(forKey: key) }
        changeAttribute(forKey: key, ordinal: ordinal) { values[ordinal: ordinal] = stored.map { .stored($0) } }
        return true
    }

    /// Sets `key` through key-value coding: the typed write's fallback.
    @usableFromInline
    func setValueThroughKeyValueCoding<T>(_ newValue: T, forKey key: String) {
        setValue(unwrapOptional(newValue), forKey: key)
    }

    // MARK: Change bookkeeping

    /// The one way an attribute changes through key-value coding or a typed accessor: the
    /// fault fires, the undo recording sees the old value, `store` writes, the change is noted.
    private func changeAttribute(forKey key: String, ordinal: Int? = nil, _ store: () -> Void) {
        fireFaultIfNeeded()
        willChangeStoredValue(forKey: key)
        store()
        noteChange(key, ordinal: ordinal)
    }

    /// Called with a property's old value still in place, just before it changes: the
    /// context's undo recording keeps the value the current undo step started from.
    func willChangeStoredValue(forKey key: String) {
        managedObjectContext?.undoRecording?.objectWillChange(self, key: key)
    }

    /// Records that `key` changed; `ordinal`, when the caller knows it, is the key's ordinal in
    /// the object's property index and spares a look-up by name.
    func noteChange(_ key: String, ordinal: Int? = nil) {
        let state = liveState()
        let bookkeeping = ensureBookkeeping()
        if let ordinal {
            state.changedKeys.insert(ordinal: ordinal)
            bookkeeping.eventChangedKeys.insert(ordinal: ordinal)
        } else {
            state.changedKeys.insert(key)
            bookkeeping.eventChangedKeys.insert(key)
        }
        managedObjectContext?.objectDidChange(self)
    }

    private func noteUnknownKey(_ key: String) {
        noteMisuse("The entity \(entity.name ?? "") has no property named '\(key)'", key: key)
    }

    /// Records a mistake made through a call that cannot throw; the next save throws it (1550).
    func noteMisuse(_ message: String, key: String) {
        deferredErrors.append(CoreDataError.make(NSManagedObjectValidationError, message,
            [NSValidationKeyErrorKey: key, NSValidationObjectErrorKey: self]))
    }
}

/// Zero values for the non-optional scalar types Xcode generates (`Int16`, `Bool`, `Double`...).
enum ZeroValue {
    /// `raw` as `T`, nil becoming zero for those types, as Xcode-generated properties read it;
    /// nil when `raw` is of another type.
    static func converted<T>(_ raw: Any?, to type: T.Type) -> T? {
        if let typed = raw as? T { return typed }
        return raw == nil ? zero(of: T.self) : nil
    }

    static func zero<T>(of type: T.Type) -> T? {
        let candidates: [Any] = [Int16(0), Int32(0), Int64(0), Int(0), Double(0), Float(0), false, Decimal(0),
                                 "", Date(timeIntervalSinceReferenceDate: 0), Data(), UUID(uuid: (0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0))]
        for candidate in candidates {
            if let zero = candidate as? T, Swift.type(of: candidate) == T.self { return zero }
        }
        return nil
    }
}
