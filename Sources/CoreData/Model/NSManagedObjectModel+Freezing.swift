/// A model in use is immutable: every context, store and compiled lookup table reads it from
/// any queue without a lock, so an edit after the first coordinator took it would be a data
/// race and could leave stores and objects disagreeing about the schema.
///
/// Apple's framework raises on such an edit. A property setter cannot throw, so here the edit
/// stops the program with a message that names the model, the description and the property,
/// before anything is changed.
extension NSManagedObjectModel {
    /// Whether a coordinator uses this model (it can no longer be changed).
    var isEditable: Bool { !frozen.load(ordering: .acquiring) }

    /// Called by every coordinator that uses the model; the first freezes it and builds each
    /// entity's property index for good (entities are read without locks from then on).
    func freeze() {
        guard frozen.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        for entity in entities { entity.freezePropertyIndex() }
    }

    /// Stops the program if the model is in use; `what` names the description and property.
    func requireEditable(_ what: @autoclosure () -> String) {
        guard !isEditable else { return }
        let names = entities.compactMap(\.name).sorted().joined(separator: ", ")
        fatalError("CoreData: can't modify an immutable model: \(what()) was changed after a persistent store coordinator started using the model (entities: \(names)). Build a new model, or copy this one, before changing it.")
    }
}

extension NSEntityDescription {
    /// Stops the program if this entity's model is in use.
    func requireEditable(_ property: String) {
        managedObjectModel?.requireEditable("\(property) of entity '\(name ?? "")'")
    }
}

extension NSPropertyDescription {
    /// Stops the program if this property's model is in use.
    func requireEditable(_ property: String) {
        entity?.managedObjectModel?.requireEditable("\(property) of property '\(name)' of entity '\(entity?.name ?? "")'")
    }
}
