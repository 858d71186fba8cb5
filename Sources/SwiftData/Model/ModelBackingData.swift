import Observation

/// The persisted values of one model: kept aside until the model is inserted into a context,
/// then read and written through its managed object.
///
/// The `@Model` macro routes every persisted property here, through the property's
/// `ModelPropertyBinding`, and reports reads and writes to the registrar held here, which the
/// context also tells when values change underneath the model (a merge, a rollback, a refresh).
///
/// Its stored properties are read on every property access, from the thread of the model's
/// context alone, so they skip the dynamic exclusivity check, as Core Data's object storage does.
public final class ModelBackingData {
    /// The managed object, once the model is inserted or fetched, while a model holds this
    /// backing data: the object keeps its backing data for its next model, so holding the
    /// object only while a model exists keeps no object alive that nobody uses.
    @exclusivity(unchecked) @usableFromInline private(set) var object: ModelBackingObject? {
        didSet { objectForReads = object.map(Unmanaged.passUnretained) }
    }
    /// `object`, unretained, for the accessors' reads: `object` keeps it alive as long as this
    /// backing data lives, and a read through a retained copy costs a retain and a release.
    @exclusivity(unchecked) @usableFromInline private(set) var objectForReads: Unmanaged<ModelBackingObject>?
    /// Values assigned before insertion, in assignment order, each with its property's binding,
    /// which moves it onto the managed object at insertion.
    @exclusivity(unchecked) var pending: [InitialValue] = []
    /// Strong, so a model outlives no context it reads through; like `object`, held only while
    /// a model holds this backing data (the context holds the object, which holds this).
    @exclusivity(unchecked) var context: ModelContext?
    /// The observers of the persisted properties of the object's models. Made with the backing
    /// data, not on a model's first read: `ObservationRegistrar` is resilient, so a registrar
    /// held optional (or in a class of its own) costs every read more than making it costs.
    public let observationRegistrar = ObservationRegistrar()
    /// The temporary identity of a model not yet inserted.
    private lazy var unattachedID = UUID()

    public init() {}

    /// The backing data of `object`'s first model, which the object keeps for the next.
    init(object: ModelBackingObject, context: ModelContext) {
        self.object = object
        objectForReads = Unmanaged.passUnretained(object)
        self.context = context
        object.backingData = self
    }

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
        guard object != nil else {
            if pending.isEmpty { pending = values } else { pending += values }
            return
        }
        // By index, so that each value is lent to its binding's write, not copied out of the
        // list and destroyed after; the autosave is scheduled once for all of them.
        for index in values.indices { values[index].binding.write(self, values[index].value, values[index].binding) }
        if !values.isEmpty { noteChange() }
    }

    /// The value of `binding`'s property. Inlinable, so that an attribute of a Core Data type
    /// is read typed from its slot, specialised for the property's type.
    @inlinable
    public func getValue<Value>(for binding: ModelPropertyBinding) -> Value {
        if binding.isDirect, let objectForReads {
            return objectForReads._withUnsafeGuaranteedRef { $0.managedValue(for: binding.managed) }
        }
        return convertedValue(for: binding)
    }

    /// Sets `binding`'s property of `owner`. An unattached model that comes to refer to an
    /// inserted one is inserted into the same context, as SwiftData does.
    @inlinable
    public func setValue<Value, Owner: PersistentModel>(_ value: Value, for binding: ModelPropertyBinding, of owner: Owner) {
        setValue(value, for: binding)
        if object == nil { insertAlongsideRelatedModels(owner, value: value) }
    }

    /// Sets `binding`'s property, and schedules the autosave.
    @inlinable
    public func setValue<Value>(_ value: Value, for binding: ModelPropertyBinding) {
        store(value, for: binding)
        noteChange()
    }

    /// Sets `binding`'s property (or keeps the value until insertion) without scheduling the
    /// autosave: what moving several initial values at once does for each.
    @inlinable
    func store<Value>(_ value: Value, for binding: ModelPropertyBinding) {
        if binding.isDirect, let object {
            object.setManagedValue(value, for: binding.managed)
            return
        }
        setConvertedValue(value, for: binding)
    }

    /// The read of anything but an attached model's Core Data-typed attribute: a value not yet
    /// inserted, a converted attribute, a relationship.
    @usableFromInline
    func convertedValue<Value>(for binding: ModelPropertyBinding) -> Value {
        guard let object else {
            if let initial = pending.last(where: { $0.binding === binding }), let value = initial.value as? Value { return value }
            return binding.shape.emptyValue(as: Value.self)
        }
        switch binding.shape {
        case .direct:
            return object.managedValue(for: binding.managed)
        case .converted(let coding):
            return coding.decode(object.managedValue(for: binding.managed) as Any?, as: Value.self)
        case .toOne(_, let optional):
            let related = (object.managedValue(for: binding.managed) as NSManagedObject?).map { context!.model(for: $0) }
            return optional ? ValueShape.wrapOptional(related, as: Value.self) : related as! Value
        case .toMany(_, let optional):
            let models = ModelBackingData.members(of: object.managedValue(for: binding.managed) as Any?).map { context!.model(for: $0) }
            return ValueShape.makeArray(models, as: Value.self, optional: optional)
        }
    }

    @usableFromInline
    func setConvertedValue<Value>(_ value: Value, for binding: ModelPropertyBinding) {
        guard let object, let context else {
            pending.append(InitialValue(value, for: binding))
            return
        }
        switch binding.shape {
        case .direct:
            object.setManagedValue(value, for: binding.managed)
        case .converted(let coding):
            object.setValue(coding.encode(value), forKey: binding.key)
        case .toOne:
            let model = ValueShape.unwrap(value) as? any PersistentModel
            object.setValue(model.map { context.attach($0) }, forKey: binding.key)
        case .toMany:
            let models = ValueShape.models(in: value)
            object.setValue(Set(models.map { context.attach($0) as NSManagedObject }), forKey: binding.key)
        }
    }

    @usableFromInline
    func noteChange() {
        context?.noteChange()
    }

    @usableFromInline
    func insertAlongsideRelatedModels<Owner: PersistentModel>(_ owner: Owner, value: Any) {
        if let context = ValueShape.models(in: value).lazy.compactMap(\.modelContext).first {
            context.insert(owner)
        }
    }

    /// Moves the pending values onto `object`, now registered in `context`, which keeps this
    /// backing data for its later models.
    func attach(to object: ModelBackingObject, in context: ModelContext) {
        rejoin(object, in: context)
        object.backingData = self
        let waiting = pending
        pending = []
        take(waiting)
    }

    /// Holds `object` and `context` for a model: the one inserted now, or a new model of an
    /// object that kept this backing data from its earlier one.
    func rejoin(_ object: ModelBackingObject, in context: ModelContext) {
        self.object = object
        self.context = context
    }

    /// Its model is going (`ModelBackingSlot`): the object must not name it any longer, and
    /// this backing data, which the object keeps, lets go of the object and the context. Only
    /// one model at a time wraps an object, and its backing data is this one, so the object's
    /// link is that model's.
    func modelDidGo() {
        object?.model = nil
        object = nil
        context = nil
    }

    func persistentModelID(entityName: String) -> PersistentIdentifier {
        if let object { return PersistentIdentifier(object.objectID) }
        return PersistentIdentifier(unattachedEntityName: entityName, id: unattachedID)
    }

    /// Tells `model`'s observers that the properties `bindings` name changed underneath it.
    func notifyObservers(of model: any PersistentModel, changed bindings: some Sequence<ModelPropertyBinding>) {
        for binding in bindings { binding.notify(model, observationRegistrar) }
    }

    /// The objects of a to-many value, whatever collection the context hands back.
    static func members(of value: Any?) -> [NSManagedObject] {
        switch value {
        case let set as Set<NSManagedObject>: Array(set)
        case let set as NSSet: set.allObjects.compactMap { $0 as? NSManagedObject }
        case let set as NSOrderedSet: set.array.compactMap { $0 as? NSManagedObject }
        case let array as [NSManagedObject]: array
        default: []
        }
    }
}
