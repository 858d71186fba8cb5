/// A model's hold on its backing data, stored in the model (the `@Model` macro declares it).
///
/// Non-copyable, so that it lives exactly as long as its model: when the model goes, so does
/// the slot, and it tells the backing data, which clears the managed object's link back to the
/// model. That link can then be a plain unretained pointer instead of a weak reference, which
/// would cost every model a side allocation on creation and a slower release.
///
/// The slot retains the backing data itself (and releases it in `deinit`), so that a property
/// read borrows the backing data for its duration instead of retaining and releasing it.
public struct ModelBackingSlot: ~Copyable {
    @usableFromInline var held: Unmanaged<ModelBackingData>?

    public init() {}

    public init(_ data: ModelBackingData) {
        held = .passRetained(data)
    }

    /// The backing data; nil until first asked for (a model made in user code) or given (a
    /// fetched model).
    public var data: ModelBackingData? { held?.takeUnretainedValue() }

    /// Holds `newData` instead; backing data let go of no longer has this model.
    public mutating func hold(_ newData: ModelBackingData) {
        guard let old = held else {
            held = .passRetained(newData)
            return
        }
        guard old.takeUnretainedValue() !== newData else { return }
        held = .passRetained(newData)
        Self.letGo(of: old)
    }

    /// The value of `binding`'s property of `model`, reported to the model's observers as
    /// read: what a persisted property's getter does once the backing data exists.
    @inlinable
    public func value<Model: PersistentModel, Value>(of model: Model, keyPath: KeyPath<Model, Value>, binding: ModelPropertyBinding) -> Value {
        guard let held else { preconditionFailure("a model's property read before its backing data was made") }
        return held._withUnsafeGuaranteedRef { backing in
            backing.observationRegistrar.access(model, keyPath: keyPath)
            return backing.getValue(for: binding)
        }
    }

    private static func letGo(of held: Unmanaged<ModelBackingData>) {
        held._withUnsafeGuaranteedRef { $0.modelDidGo() }
        held.release()
    }

    deinit {
        if let held { Self.letGo(of: held) }
    }
}
