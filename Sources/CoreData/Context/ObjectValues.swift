/// A managed object's current values by property ordinal: attributes as `StoredValue`s (the
/// same values its row holds), to-one relationships as the related object's ID (as its row
/// holds them), loaded to-many relationships as their members. Keys that name no property (a
/// primitive value set under an arbitrary key) sit beside them.
///
/// A fetched object shares its row's array of values with the row cache and its committed
/// snapshot: filling a fault from a row takes the row's array as it is, to-one IDs included,
/// and the first write copies it (Swift's copy on write). A to-one is resolved to its object
/// through the context when it is read, so an object holds no strong reference to its
/// destinations, as on Apple platforms. Members, which a row cannot hold, live in an array of
/// their own, allocated only by an object that has one.
///
/// The by-name subscript speaks the Foundation form key-value coding uses (`NSNumber` for
/// numbers, `NSManagedObjectID` for a to-one); `@Managed` accessors and the row conversions
/// use ordinals and stored values.
struct ObjectValues {
    /// A stored attribute value, and a to-one's destination ID, is the `StoredValue` a row
    /// holds; the other cases hold what the object graph needs and a row cannot.
    enum Slot {
        case stored(StoredValue)
        /// A to-one destination the owner's context cannot find by its ID: the owner or the
        /// destination is in no context yet (`NSManagedObject(entity:insertInto: nil)`).
        case object(NSManagedObject)
        case members(ToManyMembers)
    }

    /// What `related` holds: the slots a row cannot.
    private enum Related {
        case object(NSManagedObject)
        case members(ToManyMembers)
    }

    let index: PropertyIndex
    /// Attribute values (and a fetched object's to-one IDs) by ordinal: the row's own array
    /// until the object is written. Empty (no allocation) until the first value is set: a
    /// fault holds nothing.
    private var stored: ContiguousArray<StoredValue?> = []
    /// Destinations held as objects and loaded members by ordinal; a value here shadows
    /// `stored`'s at the same ordinal. Empty until the first is set.
    private var related: ContiguousArray<Related?> = []
    private var extras: [String: Any] = [:]

    init(entity: NSEntityDescription) {
        index = entity.propertyIndex
    }

    /// A row's values as they are, sharing the row's array; to-one destinations are IDs for the
    /// caller to resolve.
    init(row: RowValues) {
        index = row.index
        stored = row.slots
    }

    var isEmpty: Bool { extras.isEmpty && !stored.contains { $0 != nil } && !related.contains { $0 != nil } }

    /// Names that have a value, properties first.
    var keys: [String] {
        index.properties.indices.compactMap { self[ordinal: $0] == nil ? nil : index.properties[$0].name } + extras.keys.sorted()
    }

    subscript(ordinal ordinal: Int) -> Slot? {
        get {
            if !related.isEmpty, let value = related[ordinal] {
                switch value {
                case .object(let object): return .object(object)
                case .members(let members): return .members(members)
                }
            }
            return stored.isEmpty ? nil : stored[ordinal].map { .stored($0) }
        }
        set {
            switch newValue {
            case .stored(let value)?:
                setStored(value, at: ordinal)
                setRelated(nil, at: ordinal)
            case .object(let object)?:
                setRelated(.object(object), at: ordinal)
            case .members(let members)?:
                setRelated(.members(members), at: ordinal)
            case nil:
                setStored(nil, at: ordinal)
                setRelated(nil, at: ordinal)
            }
        }
    }

    /// Writes `stored` only where it changes something, so that clearing a slot of a fetched
    /// object that has no value there keeps the row's array shared.
    private mutating func setStored(_ value: StoredValue?, at ordinal: Int) {
        if stored.isEmpty {
            guard value != nil else { return }
            stored = ContiguousArray(filledWith: nil, count: index.properties.count)
        } else if value == nil, stored[ordinal] == nil {
            return
        }
        stored[ordinal] = value
    }

    private mutating func setRelated(_ value: Related?, at ordinal: Int) {
        if related.isEmpty {
            guard value != nil else { return }
            related = ContiguousArray(filledWith: nil, count: index.properties.count)
        }
        related[ordinal] = value
    }

    /// The value of `name` in Foundation form: an attribute as key-value coding returns it, a
    /// to-one as its destination's ID (or object, for `.object`), a loaded to-many as its
    /// `ToManyMembers`.
    subscript(name: String) -> Any? {
        get {
            guard let ordinal = index.ordinals[name] else { return extras[name] }
            switch self[ordinal: ordinal] {
            case .stored(let value)?: return RowValues.foundationValue(value, of: index.properties[ordinal])
            case .object(let object)?: return object
            case .members(let members)?: return members
            case nil: return nil
            }
        }
        set {
            guard let ordinal = index.ordinals[name] else {
                extras[name] = newValue
                return
            }
            self[ordinal: ordinal] = Self.slot(newValue, of: index.properties[ordinal])
        }
    }

    /// The values as a row: to-ones as their objects' IDs, without transient values or
    /// to-many members. The row shares the object's array of stored values unless a transient
    /// value or a destination held as an object must be left out or replaced.
    var rowValues: RowValues {
        var row = stored.count == index.properties.count ? RowValues(index: index, slots: stored) : RowValues(index: index)
        for ordinal in related.indices {
            switch related[ordinal] {
            case .object(let target)?: row[ordinal: ordinal] = .objectID(target.objectID)
            case .members?: if row[ordinal: ordinal] != nil { row[ordinal: ordinal] = nil }
            case nil: continue
            }
        }
        for ordinal in index.transientOrdinals where row[ordinal: ordinal] != nil {
            row[ordinal: ordinal] = nil
        }
        return row
    }

    /// Gives a new object its attributes' default values and empty to-many relationships,
    /// where it has no value yet. The defaults are converted once per entity layout
    /// (`PropertyIndex.defaultValues`), not once per object.
    mutating func fillDefaults() {
        for (ordinal, value) in index.defaultValues where self[ordinal: ordinal] == nil {
            self[ordinal: ordinal] = .stored(value)
        }
        for ordinal in index.toManyOrdinals where self[ordinal: ordinal] == nil {
            self[ordinal: ordinal] = .members(ToManyMembers())
        }
    }

    /// Names each to-one destination that `permanentID` gives a new ID (a temporary one that
    /// became permanent) by that ID, without copying the stored values when none changes.
    mutating func replaceTemporaryIDs(_ permanentID: (NSManagedObjectID) -> NSManagedObjectID?) {
        guard !stored.isEmpty else { return }
        for ordinal in index.toOneOrdinals {
            guard case .objectID(let id)? = stored[ordinal], id.isTemporaryID, let replacement = permanentID(id) else { continue }
            stored[ordinal] = .objectID(replacement)
        }
    }

    mutating func removeAll() {
        stored = []
        related = []
        extras = [:]
    }

    /// The slot a Foundation value takes in property `property`.
    static func slot(_ value: Any?, of property: NSPropertyDescription) -> Slot? {
        if let attribute = property as? NSAttributeDescription { return StoredValue(value, for: attribute).map { .stored($0) } }
        if let members = ToManyMembers.of(value) { return .members(members) }
        if let object = unwrapOptional(value) as? NSManagedObject { return .object(object) }
        return RowValues.storedValue(value, of: property).map { .stored($0) }
    }
}
