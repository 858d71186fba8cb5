import Synchronization

/// The models in use in this process, so that `Subclass.entity()` can find its entity without
/// a context, as Apple's runtime does.
final class ModelRegistry: Sendable {
    static let shared = ModelRegistry()

    private final class WeakModel: @unchecked Sendable {
        weak var model: NSManagedObjectModel?
        init(_ model: NSManagedObjectModel) { self.model = model }
    }

    private let models = Mutex<[WeakModel]>([])

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
        let bare = String(describing: objectClass)
        let qualified = String(reflecting: objectClass)
        return model.entities.first { $0.managedObjectClassName == qualified }
            ?? model.entities.first { $0.managedObjectClassName == bare }
    }
}
