import Observation

/// The managed object behind a model: every entity of a SwiftData schema uses this class, so a
/// fetched object can find (or make) the model that wraps it.
///
/// It carries what belongs to the object rather than to one model of it: the observers of its
/// models' properties and, while a model holds it, the context its models read through. A
/// model the context makes around a fetched object holds this object and nothing else: beside
/// Core Data's own, fetching a model allocates only the model and the registrar.
@usableFromInline
final class ModelBackingObject: NSManagedObject {
    /// The model wrapping this object while one exists: the model holds its object, and a model
    /// nobody holds is made again on demand. Not retained: the model's `ModelBackingSlot`
    /// clears it as the model goes, so it never outlives the model (a weak reference would do
    /// the same at the cost of a side allocation per model).
    unowned(unsafe) var model: (any PersistentModel)?
    /// The observers of the persisted properties of this object's models. It lives as long as
    /// the object, so observers outlast a model nobody holds and hear of changes through the
    /// object's next model.
    ///
    /// Made with the object, so an object no model ever wraps (a row fetched only to be
    /// deleted) makes one too. A constant, because `ObservationRegistrar` is resilient: a read
    /// of an optional or variable one copies it, which costs each property access a retain and
    /// a release, more than making the registrar costs across a model's reads.
    @usableFromInline let observationRegistrar: ObservationRegistrar
    /// The context the object's model reads related models through. Strong, so a model outlives
    /// no context it reads through; held only while a model holds this object (the context
    /// holds the object), so it keeps no context alive that nobody uses.
    ///
    /// Read at every conversion and change, on the context's thread alone, so it skips the
    /// dynamic exclusivity check, as Core Data's object storage does.
    @exclusivity(unchecked) @usableFromInline var context: ModelContext?

    /// The object of a fetched row or of `NSEntityDescription.insertNewObject`: its observers
    /// start with it.
    override init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        observationRegistrar = ObservationRegistrar()
        super.init(entity: entity, insertInto: context)
    }

    /// The object of a model made in code, inserted now: it keeps the registrar the model's
    /// observers registered with before the insertion.
    init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext, observationRegistrar: ObservationRegistrar) {
        self.observationRegistrar = observationRegistrar
        super.init(entity: entity, insertInto: context)
    }

    /// `model` wraps this object now, for `context`, which it reads related models through.
    /// Always inlined: as a call, retaining and releasing its arguments cost each fetched model
    /// about 60 instructions.
    @inline(__always)
    func join(_ model: any PersistentModel, in context: ModelContext) {
        self.model = model
        self.context = context
    }

    /// Its model is going: the object names it no longer, and lets go of the context. Only one
    /// model at a time wraps an object, so the link is that model's.
    func modelDidGo() {
        model = nil
        context = nil
    }

    /// Tells the observers of this object's model that the properties `bindings` name changed
    /// underneath it.
    func notifyObservers(changed bindings: some Sequence<ModelPropertyBinding>) {
        guard let model else { return }
        for binding in bindings { binding.notify(model, observationRegistrar) }
    }

    /// The values are gone (a rollback, a refresh that drops them, a reset): whoever observed
    /// the model's properties reads them again.
    override func didTurnIntoFault() {
        super.didTurnIntoFault()
        guard model != nil, let bindings = context?.container.schema.bindings(of: entity) else { return }
        notifyObservers(changed: bindings.values)
    }
}
