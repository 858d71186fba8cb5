/// A row's values by property ordinal (the entity's `PropertyIndex`): attributes and to-one
/// destinations (`.objectID`), with nil for no value and for to-many relationships, which are
/// not part of a row.
///
/// Stores fill it by ordinal straight from their columns; the by-name subscript converts to and
/// from the Foundation form for the code that works by name (conflicts, constraints, batch
/// inserts), at one dictionary look-up per access.
struct RowValues {
    let index: PropertyIndex
    private(set) var slots: ContiguousArray<StoredValue?>

    init(entity: NSEntityDescription) {
        self.init(index: entity.propertyIndex)
    }

    init(index: PropertyIndex) {
        self.init(index: index, slots: ContiguousArray(filledWith: nil, count: index.properties.count))
    }

    /// Values laid out by `index`, sharing `slots` (one per property) until either side writes.
    init(index: PropertyIndex, slots: ContiguousArray<StoredValue?>) {
        self.index = index
        self.slots = slots
    }

    subscript(ordinal ordinal: Int) -> StoredValue? {
        get { slots[ordinal] }
        set { slots[ordinal] = newValue }
    }

    /// The value of property `name` in its Foundation form (an `NSManagedObjectID` for a to-one
    /// relationship); setting converts back. Names that are not properties read as nil and are
    /// not kept.
    subscript(name: String) -> Any? {
        get {
            guard let ordinal = index.ordinals[name], let value = slots[ordinal] else { return nil }
            return Self.foundationValue(value, of: index.properties[ordinal])
        }
        set {
            guard let ordinal = index.ordinals[name] else { return }
            slots[ordinal] = Self.storedValue(newValue, of: index.properties[ordinal])
        }
    }

    /// Every property with a value, in ordinal order, in Foundation form.
    var namedValues: [(name: String, value: Any)] {
        slots.indices.compactMap { ordinal in
            slots[ordinal].map { (index.properties[ordinal].name, Self.foundationValue($0, of: index.properties[ordinal])) }
        }
    }

    /// The values by name in Foundation form, for snapshots handed to callers.
    var dictionary: [String: Any] {
        Dictionary(namedValues, uniquingKeysWith: { _, last in last })
    }

    static func foundationValue(_ value: StoredValue, of property: NSPropertyDescription) -> Any {
        if let attribute = property as? NSAttributeDescription { return value.foundationValue(for: attribute) }
        if case .objectID(let id) = value { return id }
        if case .other(let other) = value { return other }
        return value
    }

    static func storedValue(_ value: Any?, of property: NSPropertyDescription) -> StoredValue? {
        if let attribute = property as? NSAttributeDescription { return StoredValue(value, for: attribute) }
        guard let value = unwrapOptional(value), !(value is NSNull) else { return nil }
        if let id = value as? NSManagedObjectID { return .objectID(id) }
        return .other(value)
    }
}
