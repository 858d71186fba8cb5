/// Telling a model's observers when its values change underneath it: a merge of another
/// context's save, a refresh. (A rollback, or a refresh that drops the values, turns the
/// object into a fault, which `ModelBackingObject` reports itself.)
extension ModelContext {
    /// `objects` were refreshed (merged, or refreshed keeping their changes): the observers of
    /// each live model hear of the properties whose values moved, or of all of them when the
    /// context does not know which. Faults are left out: they told their observers when they
    /// dropped their values, and nobody has read them since.
    static func notifyObserversOfRefreshedModels(_ objects: Set<NSManagedObject>?, in schema: Schema) {
        guard let objects else { return }
        for object in objects where !object.isFault {
            guard let object = object as? ModelBackingObject, object.model != nil,
                  let bindings = schema.bindings(of: object.entity) else { continue }
            let changed = object.keysChangedInCurrentEvent
            if changed.isEmpty {
                object.notifyObservers(changed: bindings.values)
            } else {
                object.notifyObservers(changed: changed.compactMap { bindings[$0] })
            }
        }
    }
}
