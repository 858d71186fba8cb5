import Observation

/// The persisted values of a model made in code: kept aside until the model is inserted into a
/// context, then read and written through its managed object. It is also what
/// `persistentBackingData` hands out for a model a context made around a fetched object, made
/// then, on first ask: such a model reads and writes through its object alone.
///
/// Its stored properties are read on every property access of a model made in code, from the
/// thread of the model's context alone, so they skip the dynamic exclusivity check, as Core
/// Data's object storage does.
public final class ModelBackingData {
    /// The managed object, once the model is inserted, while the model holds this backing data.
    @exclusivity(unchecked) @usableFromInline private(set) var object: ModelBackingObject? {
        didSet { objectForReads = object.map(Unmanaged.passUnretained) }
    }
    /// `object`, unretained, for the accessors: `object` keeps it alive as long as this backing
    /// data lives, and an access through a retained copy costs a retain and a release.
    @exclusivity(unchecked) @usableFromInline private(set) var objectForReads: Unmanaged<ModelBackingObject>?
    /// Values assigned before insertion, in assignment order, each with its property's binding,
    /// which moves it onto the managed object at insertion.
    @exclusivity(unchecked) var pending: [InitialValue] = []
    /// The observers of the model's persisted properties: the object's, once there is one,
    /// which is made with this registrar at insertion.
    public let observationRegistrar: ObservationRegistrar
    /// The temporary identity of a model not yet inserted.
    private lazy var unattachedID = UUID()

    public init() {
        observationRegistrar = ObservationRegistrar()
    }

    /// The backing data of a model the context made around `object`, asked for.
    init(object: ModelBackingObject) {
        observationRegistrar = object.observationRegistrar
        self.object = object
        objectForReads = Unmanaged.passUnretained(object)
    }

    /// The context the model is inserted in or was fetched by.
    public var context: ModelContext? { object?.context }

    /// A value a model's initialiser assigned, held by the model until its backing data is
    /// first asked for: Swift runs a subclass's property initialisation before its superclass
    /// has made the backing data.
    public struct InitialValue {
        @usableFromInline let binding: ModelPropertyBinding
        @usableFromInline let value: Any

        @inlinable
        public init<Value>(_ value: Value, for binding: ModelPropertyBinding) {
            self.binding = binding
            self.value = value
        }
    }

    /// Adds `value` to a model level's initial values: what a persisted property's init
    /// accessor does. The list is made with room for a typical model's properties, so that a
    /// new model does not grow it one reallocation at a time.
    @inlinable
    public static func collect<Value>(_ value: Value, for binding: ModelPropertyBinding, into values: inout [InitialValue]) {
        if values.capacity == 0 { values.reserveCapacity(8) }
        values.append(InitialValue(value, for: binding))
    }

    /// Takes over the initial values a model level collected, emptying `values`.
    public func adopt(_ values: inout [InitialValue]) {
        let adopted = values
        values = []
        take(adopted)
    }

    /// Keeps `values` until insertion (the list itself, when nothing waits yet), or writes them
    /// onto the managed object.
    private func take(_ values: [InitialValue]) {
        guard let object else {
            if pending.isEmpty { pending = values } else { pending += values }
            return
        }
        // By index, so that each value is lent to its binding's write, not copied out of the
        // list and destroyed after; the autosave is scheduled once for all of them.
        for index in values.indices { values[index].binding.write(object, values[index].value, values[index].binding) }
        if !values.isEmpty { object.noteChange() }
    }

    /// The value of `binding`'s property. Inlinable, so that an attribute of a Core Data type
    /// is read typed from its slot, specialised for the property's type.
    @inlinable
    public func getValue<Value>(for binding: ModelPropertyBinding) -> Value {
        guard let objectForReads else { return pendingValue(for: binding) }
        return objectForReads._withUnsafeGuaranteedRef { $0.value(for: binding) }
    }

    /// The value set last before insertion, or the type's empty value.
    @usableFromInline
    func pendingValue<Value>(for binding: ModelPropertyBinding) -> Value {
        if let initial = pending.last(where: { $0.binding === binding }), let value = initial.value as? Value { return value }
        return binding.shape.emptyValue(as: Value.self)
    }

    /// Sets `binding`'s property of `owner`, telling the property's observers.
    @inlinable
    public func setValue<Value, Owner: PersistentModel>(_ value: Value, for binding: ModelPropertyBinding, of owner: Owner, keyPath: KeyPath<Owner, Value>) {
        if let objectForReads {
            objectForReads._withUnsafeGuaranteedRef { $0.setValue(value, of: owner, keyPath: keyPath, binding: binding) }
            return
        }
        setPendingValue(value, for: binding, of: owner, keyPath: keyPath)
    }

    /// Keeps a value set before insertion. An unattached model that comes to refer to an
    /// inserted one is inserted into the same context, as SwiftData does.
    @usableFromInline
    func setPendingValue<Value, Owner: PersistentModel>(_ value: Value, for binding: ModelPropertyBinding, of owner: Owner, keyPath: KeyPath<Owner, Value>) {
        observationRegistrar.withMutation(of: owner, keyPath: keyPath) {
            pending.append(InitialValue(value, for: binding))
            if let context = ValueShape.models(in: value).lazy.compactMap(\.modelContext).first {
                context.insert(owner)
            }
        }
    }

    /// Moves the pending values onto `object`, made for the model at its insertion.
    func attach(to object: ModelBackingObject) {
        self.object = object
        let waiting = pending
        pending = []
        take(waiting)
    }

    /// Its model is going (`ModelBackingSlot`): the object must not name it any longer, nor
    /// hold the context for it, and this backing data lets go of the object.
    func modelDidGo() {
        object?.modelDidGo()
        object = nil
    }

    func persistentModelID(entityName: String) -> PersistentIdentifier {
        if let object { return PersistentIdentifier(object.objectID) }
        return PersistentIdentifier(unattachedEntityName: entityName, id: unattachedID)
    }
}
