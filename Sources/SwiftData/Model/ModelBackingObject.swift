/// The managed object behind a model: every entity of a SwiftData schema uses this class, so a
/// fetched object can find (or make) the model that wraps it.
@usableFromInline
final class ModelBackingObject: NSManagedObject {
    /// The model wrapping this object while one exists: the model holds its object, and a model
    /// nobody holds is made again on demand. Not retained: the model's `ModelBackingSlot`
    /// clears it as the model goes, so it never outlives the model (a weak reference would do
    /// the same at the cost of a side allocation per model).
    unowned(unsafe) var model: (any PersistentModel)?
    /// The backing data of this object's models, made with the first and handed to each one
    /// after it: the observation registrar in it lives as long as the object, so observers
    /// outlast a model nobody holds, and a model made again costs no registrar. It refers back
    /// to this object strongly only while a model holds it, so it keeps no object alive.
    var backingData: ModelBackingData?

    /// The values are gone (a rollback, a refresh that drops them, a reset): whoever observed
    /// the model's properties reads them again.
    override func didTurnIntoFault() {
        super.didTurnIntoFault()
        guard let model else { return }
        let backing = model.persistentBackingData
        guard let bindings = backing.context?.container.schema.bindings(of: entity) else { return }
        backing.notifyObservers(of: model, changed: bindings.values)
    }
}
