/// Reading and writing a model's persisted properties on its managed object, through each
/// property's binding: what a model's accessors do once the model has an object, whether the
/// context made the model around a fetched object or the model was made in code and inserted.
extension ModelBackingObject {
    /// The value of `binding`'s property. Inlinable, so that an attribute of a Core Data type
    /// is read typed from its slot, specialised for the property's type.
    @inlinable
    func value<Value>(for binding: ModelPropertyBinding) -> Value {
        if binding.isDirect { return managedValue(for: binding.managed) }
        return convertedValue(for: binding)
    }

    /// The read of anything but a Core Data-typed attribute: a converted attribute, a
    /// relationship (whose models the context finds or makes).
    @usableFromInline
    func convertedValue<Value>(for binding: ModelPropertyBinding) -> Value {
        switch binding.shape {
        case .direct:
            return managedValue(for: binding.managed)
        case .converted(let coding):
            return coding.decode(managedValue(for: binding.managed) as Any?, as: Value.self)
        case .toOne(_, let optional):
            let related = (managedValue(for: binding.managed) as NSManagedObject?).map { context!.model(for: $0) }
            return optional ? ValueShape.wrapOptional(related, as: Value.self) : related as! Value
        case .toMany(_, let optional):
            let models = Self.members(of: managedValue(for: binding.managed) as Any?).map { context!.model(for: $0) }
            return ValueShape.makeArray(models, as: Value.self, optional: optional)
        }
    }

    /// Sets `binding`'s property of `model`, telling the property's observers and scheduling
    /// the autosave: what a persisted property's setter does.
    @inlinable
    func setValue<Model: PersistentModel, Value>(_ value: Value, of model: Model, keyPath: KeyPath<Model, Value>, binding: ModelPropertyBinding) {
        observationRegistrar.withMutation(of: model, keyPath: keyPath) {
            store(value, for: binding)
            noteChange()
        }
    }

    /// Sets `binding`'s property without scheduling the autosave: what moving several values
    /// at once (a model's initial values, at insertion) does for each.
    @inlinable
    func store<Value>(_ value: Value, for binding: ModelPropertyBinding) {
        if binding.isDirect {
            setManagedValue(value, for: binding.managed)
            return
        }
        storeConverted(value, for: binding)
    }

    /// The write of anything but a Core Data-typed attribute; a related model not yet inserted
    /// is inserted into this object's context, as SwiftData does.
    @usableFromInline
    func storeConverted<Value>(_ value: Value, for binding: ModelPropertyBinding) {
        switch binding.shape {
        case .direct:
            setManagedValue(value, for: binding.managed)
        case .converted(let coding):
            setValue(coding.encode(value), forKey: binding.key)
        case .toOne:
            let model = ValueShape.unwrap(value) as? any PersistentModel
            setValue(model.map { context!.attach($0) }, forKey: binding.key)
        case .toMany:
            let models = ValueShape.models(in: value)
            setValue(Set(models.map { context!.attach($0) as NSManagedObject }), forKey: binding.key)
        }
    }

    /// Schedules the context's autosave after a change.
    @usableFromInline
    func noteChange() {
        context?.noteChange()
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
