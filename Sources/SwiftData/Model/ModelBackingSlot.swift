/// A model's hold on what backs it, stored in the model (the `@Model` macro declares it): the
/// managed object, for a model its context made around a fetched object, or backing data, for
/// a model made in code (and for any model whose `persistentBackingData` was asked for).
///
/// Non-copyable, so that it lives exactly as long as its model: when the model goes, so does
/// the slot, and it clears the managed object's link back to the model. That link can then be
/// a plain unretained pointer instead of a weak reference, which would cost every model a side
/// allocation on creation and a slower release.
///
/// The slot retains what it holds itself (and releases it in `deinit`), so that a property
/// access borrows it for its duration instead of retaining and releasing it.
public struct ModelBackingSlot: ~Copyable {
    /// The object a fetched model reads and writes through, with no backing data of its own.
    @usableFromInline var object: Unmanaged<ModelBackingObject>?
    /// The model's backing data: made in code, given, or made when first asked for.
    @usableFromInline var data: Unmanaged<ModelBackingData>?

    public init() {}

    public init(_ data: ModelBackingData) {
        self.data = .passRetained(data)
    }

    /// The slot of a model a context makes around `object`.
    init(_ object: ModelBackingObject) {
        self.object = .passRetained(object)
    }

    /// Whether nothing backs the model yet: a model made in code, before its first access.
    public var isEmpty: Bool { object == nil && data == nil }

    /// The model's backing data, made on first ask: around the object, for a fetched model, or
    /// empty, for a model made in code.
    public mutating func backingData() -> ModelBackingData {
        if let data { return data.takeUnretainedValue() }
        let made = object.map { ModelBackingData(object: $0.takeUnretainedValue()) } ?? ModelBackingData()
        data = .passRetained(made)
        return made
    }

    /// Holds `newData` instead of what backed the model; what it let go of no longer has this
    /// model.
    public mutating func hold(_ newData: ModelBackingData) {
        if let data, data.takeUnretainedValue() === newData { return }
        Self.letGo(object, data)
        object = nil
        data = .passRetained(newData)
    }

    /// The value of `binding`'s property of `model`, reported to the model's observers as
    /// read: what a persisted property's getter does once the slot holds something.
    @inlinable
    public func value<Model: PersistentModel, Value>(of model: Model, keyPath: KeyPath<Model, Value>, binding: ModelPropertyBinding) -> Value {
        if let object {
            return object._withUnsafeGuaranteedRef { object in
                object.observationRegistrar.access(model, keyPath: keyPath)
                return object.value(for: binding)
            }
        }
        guard let data else { preconditionFailure("a model's property read before its backing data was made") }
        return data._withUnsafeGuaranteedRef { backing in
            backing.observationRegistrar.access(model, keyPath: keyPath)
            return backing.getValue(for: binding)
        }
    }

    /// Sets `binding`'s property of `model`, telling its observers: what a persisted property's
    /// setter does once the slot holds something.
    @inlinable
    public func setValue<Model: PersistentModel, Value>(_ value: Value, of model: Model, keyPath: KeyPath<Model, Value>, binding: ModelPropertyBinding) {
        if let object {
            object._withUnsafeGuaranteedRef { $0.setValue(value, of: model, keyPath: keyPath, binding: binding) }
            return
        }
        guard let data else { preconditionFailure("a model's property set before its backing data was made") }
        data._withUnsafeGuaranteedRef { $0.setValue(value, for: binding, of: model, keyPath: keyPath) }
    }

    /// Lets go of what backed the model, which then no longer has it.
    private static func letGo(_ object: Unmanaged<ModelBackingObject>?, _ data: Unmanaged<ModelBackingData>?) {
        if let object {
            object._withUnsafeGuaranteedRef { $0.modelDidGo() }
            object.release()
        }
        if let data {
            data._withUnsafeGuaranteedRef { $0.modelDidGo() }
            data.release()
        }
    }

    deinit {
        Self.letGo(object, data)
    }
}
