/// The persisted values of one model: kept in a dictionary until the model is inserted into a
/// context, then read and written through its managed object.
///
/// The `@Model` macro routes every persisted property here, by name.
public final class ModelBackingData {
    /// The managed object, once the model is inserted or fetched.
    var object: ModelBackingObject?
    /// Values assigned before insertion, as the Swift values given, each with the typed write
    /// that moves it onto the managed object at insertion.
    var pending: [String: (value: Any, write: (ModelBackingData) -> Void)] = [:]
    /// Strong, so a model outlives no context it reads through (the context holds its objects,
    /// and an object only weakly its model, so this makes no cycle).
    var context: ModelContext?
    /// The temporary identity of a model not yet inserted.
    private lazy var unattachedID = UUID()

    public init() {}

    init(object: ModelBackingObject, context: ModelContext) {
        self.object = object
        self.context = context
    }

    public func setInitialValue<Value>(_ value: Value, forKey key: String) {
        setValue(value, forKey: key)
    }

    /// Sets a property of `owner` after initialisation. An unattached model that comes to
    /// refer to an inserted one is inserted into the same context, as SwiftData does.
    public func setValue<Value, Owner: PersistentModel>(_ value: Value, forKey key: String, of owner: Owner) {
        setValue(value, forKey: key)
        if object == nil, let context = ValueShape.models(in: value).lazy.compactMap(\.modelContext).first {
            context.insert(owner)
        }
    }

    public func getValue<Value>(forKey key: String) -> Value {
        guard let object else {
            if let value = pending[key]?.value as? Value { return value }
            return ValueShape.of(Value.self).emptyValue(as: Value.self)
        }
        switch ValueShape.of(Value.self) {
        case .direct:
            return object.managedValue(forKey: key)
        case .converted(let coding):
            return coding.decode(object.value(forKey: key), as: Value.self)
        case .toOne(_, let optional):
            let related = (object.value(forKey: key) as? NSManagedObject).map { context!.model(for: $0) }
            return optional ? ValueShape.wrapOptional(related, as: Value.self) : related as! Value
        case .toMany(_, let optional):
            let models = ModelBackingData.members(of: object.value(forKey: key)).map { context!.model(for: $0) }
            return ValueShape.makeArray(models, as: Value.self, optional: optional)
        }
    }

    public func setValue<Value>(_ value: Value, forKey key: String) {
        guard let object, let context else {
            pending[key] = (value, { $0.setValue(value, forKey: key) })
            return
        }
        switch ValueShape.of(Value.self) {
        case .direct:
            object.setManagedValue(value, forKey: key)
        case .converted(let coding):
            object.setValue(coding.encode(value), forKey: key)
        case .toOne:
            let model = ValueShape.unwrap(value) as? any PersistentModel
            object.setValue(model.map { context.attach($0) }, forKey: key)
        case .toMany:
            let models = ValueShape.models(in: value)
            object.setValue(Set(models.map { context.attach($0) as NSManagedObject }), forKey: key)
        }
        context.noteChange()
    }

    /// Moves the pending values onto `object`, now registered in `context`.
    func attach(to object: ModelBackingObject, in context: ModelContext) {
        self.object = object
        self.context = context
        let values = pending
        pending = [:]
        for (_, value) in values { value.write(self) }
    }

    /// The models a pending value refers to, which are inserted along with this one.
    var pendingRelatedModels: [any PersistentModel] {
        pending.values.flatMap { ValueShape.models(in: $0.value) }
    }

    func persistentModelID(entityName: String) -> PersistentIdentifier {
        if let object { return PersistentIdentifier(object.objectID) }
        return PersistentIdentifier(unattachedEntityName: entityName, id: unattachedID)
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
