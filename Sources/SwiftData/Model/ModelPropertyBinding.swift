import Observation

/// A persisted property of a model class, bound once per class: `@Model` declares one per
/// property, as a static of the class, and every access goes through it.
///
/// It carries what would otherwise be worked out at each access: how the property's Swift type
/// is stored (`ValueShape`), the Core Data binding that finds the attribute's slot in the
/// object's layout without a look-up by name, and the typed operations an untyped caller needs
/// (moving a value set before insertion onto the managed object, telling observers the value
/// changed underneath them).
///
/// Unchecked: every stored property is a constant, and the closures capture only the
/// property's key path, an immutable value any thread may read.
public final class ModelPropertyBinding: @unchecked Sendable {
    /// The property's name, which is the attribute's or relationship's.
    public let key: String
    /// Where the value lives in the managed object's layout, resolved once per class.
    @usableFromInline let managed: ManagedPropertyBinding
    /// Whether the managed object reads and writes the value typed (a Core Data attribute type),
    /// the accessor's fast path.
    @usableFromInline let isDirect: Bool
    let shape: ValueShape
    /// Sets the property of an attached model from a value held untyped (one given before the
    /// model was inserted).
    let write: (_ object: ModelBackingObject, _ value: Any, _ binding: ModelPropertyBinding) -> Void
    /// Tells the observers of `model`'s property that its value changed, with the key path the
    /// property's accessors register.
    let notify: (_ model: any PersistentModel, _ registrar: ObservationRegistrar) -> Void

    @usableFromInline
    init(key: String, valueType: Any.Type,
         write: @escaping (ModelBackingObject, Any, ModelPropertyBinding) -> Void,
         notify: @escaping (any PersistentModel, ObservationRegistrar) -> Void) {
        self.key = key
        managed = ManagedPropertyBinding(key: key)
        shape = ValueShape.of(valueType)
        if case .direct = shape { isDirect = true } else { isDirect = false }
        self.write = write
        self.notify = notify
    }

    /// The binding of `keyPath`'s property, named `key`; `keyPath` is rooted at the class that
    /// declares the property, as its accessors' observation key paths are.
    ///
    /// Inlinable, so that the typed operations are specialised for the property's type in the
    /// module that declares the model.
    @inlinable
    public static func make<Root: PersistentModel, Value>(key: String, keyPath: KeyPath<Root, Value>) -> ModelPropertyBinding {
        let property = TypedProperty(keyPath)
        return ModelPropertyBinding(
            key: key, valueType: Value.self,
            write: { object, value, binding in property.write(value, into: object, for: binding) },
            notify: { model, registrar in property.notifyChange(of: model, to: registrar) }
        )
    }
}

/// The typed operations of one property, for closures that are handed values untyped.
@usableFromInline
struct TypedProperty<Root: PersistentModel, Value> {
    @usableFromInline let keyPath: KeyPath<Root, Value>

    @inlinable
    init(_ keyPath: KeyPath<Root, Value>) {
        self.keyPath = keyPath
    }

    @inlinable
    func write(_ value: Any, into object: ModelBackingObject, for binding: ModelPropertyBinding) {
        object.store(value as! Value, for: binding)
    }

    @inlinable
    func notifyChange(of model: any PersistentModel, to registrar: ObservationRegistrar) {
        guard let subject = model as? Root else { return }
        registrar.withMutation(of: subject, keyPath: keyPath) {}
    }
}
