/// A managed object's current values by property ordinal: attributes as `StoredValue`s (the
/// same values its row holds, so filling a fault from a row copies them without conversion),
/// to-one relationships as the related object, loaded to-many relationships as their members.
/// Keys that name no property (a primitive value set under an arbitrary key) sit beside them.
///
/// The by-name subscript speaks the Foundation form key-value coding uses (`NSNumber` for
/// numbers); `@Managed` accessors and the row conversions use ordinals and stored values.
struct ObjectValues {
    /// A stored attribute value is the `StoredValue` a row holds; a relationship's slot holds
    /// what the object graph needs and a row cannot (the related object, loaded members).
    enum Slot {
        case stored(StoredValue)
        case object(NSManagedObject)
        case members(ToManyMembers)
    }

    let index: PropertyIndex
    /// Empty (no allocation) until the first value is set: a fault holds nothing.
    private(set) var slots: ContiguousArray<Slot?> = []
    private var extras: [String: Any] = [:]

    init(entity: NSEntityDescription) {
        index = entity.propertyIndex
    }

    /// A row's values as they are, to-one destinations still as IDs for the caller to resolve.
    init(row: RowValues) {
        index = row.index
        // A plain loop: a lazy map went through the generic sequence copy, which cost more than
        // the values themselves.
        var slots = ContiguousArray<Slot?>()
        slots.reserveCapacity(row.slots.count)
        for value in row.slots { slots.append(value.map { .stored($0) }) }
        self.slots = slots
    }

    var isEmpty: Bool { extras.isEmpty && !slots.contains { $0 != nil } }

    /// Names that have a value, properties first.
    var keys: [String] {
        slots.indices.compactMap { slots[$0] == nil ? nil : index.properties[$0].name } + extras.keys.sorted()
    }

    subscript(ordinal ordinal: Int) -> Slot? {
        get { slots.isEmpty ? nil : slots[ordinal] }
        set {
            if slots.isEmpty {
                guard newValue != nil else { return }
                slots = ContiguousArray(filledWith: nil, count: index.properties.count)
            }
            slots[ordinal] = newValue
        }
    }

    /// The value of `name` in Foundation form: an attribute as key-value coding returns it, a
    /// to-one as its object, a loaded to-many as its `ToManyMembers`.
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

    mutating func removeAll() {
        slots = []
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
