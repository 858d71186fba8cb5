/// The models in use in this process, so that `Subclass.entity()` can find its entity without
/// a context, as Apple's runtime does.
final class ModelRegistry: Sendable {
    static let shared = ModelRegistry()

    private final class WeakModel: @unchecked Sendable {
        weak var model: NSManagedObjectModel?
        init(_ model: NSManagedObjectModel) { self.model = model }
    }

    private let models = Locked<[WeakModel]>([])

    private struct ClassInModel: Hashable {
        let model: ObjectIdentifier
        let objectClass: ObjectIdentifier
    }

    private final class WeakEntity: @unchecked Sendable {
        weak var entity: NSEntityDescription?
        init(_ entity: NSEntityDescription) { self.entity = entity }
    }

    /// Entities found by class: every `Subclass(context:)` looks its entity up, and naming the
    /// class costs thousands of instructions.
    private let entitiesByClass = Locked<[ClassInModel: WeakEntity]>([:])

    func add(_ model: NSManagedObjectModel) {
        models.withLock { list in
            list.removeAll { $0.model == nil || $0.model === model }
            list.append(WeakModel(model))
        }
    }

    /// The entity of the most recently used model whose class is `objectClass`.
    func entity(for objectClass: NSManagedObject.Type) -> NSEntityDescription? {
        let live = models.withLock { $0.compactMap(\.model) }
        for model in live.reversed() {
            if let entity = Self.entity(for: objectClass, in: model) { return entity }
        }
        return nil
    }

    /// The entity in `model` whose class name names `objectClass` (bare or module-qualified).
    static func entity(for objectClass: NSManagedObject.Type, in model: NSManagedObjectModel) -> NSEntityDescription? {
        let key = ClassInModel(model: ObjectIdentifier(model), objectClass: ObjectIdentifier(objectClass))
        // The model check guards against a freed model's identifier being reused.
        if let cached = shared.entitiesByClass.withLock({ $0[key]?.entity }), cached.managedObjectModel === model {
            return cached
        }
        let bare = String(describing: objectClass)
        let qualified = String(reflecting: objectClass)
        let found = model.entities.first { $0.managedObjectClassName == qualified }
            ?? model.entities.first { $0.managedObjectClassName == bare }
        if let found { shared.entitiesByClass.withLock { $0[key] = WeakEntity(found) } }
        return found
    }
}
