/// The managed object behind a model: every entity of a SwiftData schema uses this class, so a
/// fetched object can find (or make) the model that wraps it.
final class ModelBackingObject: NSManagedObject {
    /// Weak: the model holds its object, and a model nobody holds is made again on demand.
    weak var model: (any PersistentModel)?
}
