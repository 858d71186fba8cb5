import Foundation

/// Where models are inserted, changed, fetched and saved: a managed object context on the
/// container's stores. Like Apple's, a context belongs to the actor (or thread) that uses it.
///
/// For example:
/// ```swift
/// let context = ModelContext(container)
/// context.insert(Trip(name: "Lisbon", start: .now))
/// try context.save()
/// ```
public final class ModelContext {
    public let container: ModelContainer
    /// The Core Data context underneath, for code that mixes both APIs.
    public let managedObjectContext: NSManagedObjectContext
    /// Whether changes save by themselves at the end of the main queue's current turn.
    ///
    /// Read at every change, on the context's thread alone, so it and `autosaveScheduled` skip
    /// the dynamic exclusivity check, as the models' storage does.
    @exclusivity(unchecked) public var autosaveEnabled = false
    @exclusivity(unchecked) private var autosaveScheduled = false
    /// The observation of the managed object context's changes, which tells models' observers
    /// of values merged in from other contexts' saves.
    private var changeObservation: (any NSObjectProtocol)?

    public convenience init(_ container: ModelContainer) {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = container.persistentContainer.persistentStoreCoordinator
        self.init(container, managedObjectContext: context)
    }

    init(_ container: ModelContainer, managedObjectContext: NSManagedObjectContext) {
        self.container = container
        self.managedObjectContext = managedObjectContext
        // Saves from other contexts show here, and an insert matching a unique value
        // updates the saved model: SwiftData's upsert.
        managedObjectContext.automaticallyMergesChangesFromParent = true
        managedObjectContext.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
        // The observation needs the schema only, not this context: a weak reference to the
        // context would give it a side table, and every retain of it (one per model made)
        // would take the runtime's slow path.
        let schema = container.schema
        changeObservation = NotificationCenter.default.addObserver(
            forName: .NSManagedObjectContextObjectsDidChange, object: managedObjectContext, queue: nil
        ) { notification in
            Self.notifyObserversOfRefreshedModels(notification.userInfo?[NSRefreshedObjectsKey] as? Set<NSManagedObject>, in: schema)
        }
    }

    deinit {
        if let changeObservation { NotificationCenter.default.removeObserver(changeObservation) }
    }

    /// Inserts `model`, and the models its relationships refer to, to be saved next time.
    public func insert<T: PersistentModel>(_ model: T) {
        _ = attach(model)
        noteChange()
    }

    /// Marks `model` deleted; its relationships' delete rules apply at the next save.
    public func delete<T: PersistentModel>(_ model: T) {
        guard let object = model.persistentBackingData.object else { return }
        managedObjectContext.delete(object)
        noteChange()
    }

    /// Deletes every model of `model`'s type that `predicate` matches, at the next save.
    public func delete<T: PersistentModel>(model: T.Type, where predicate: Predicate<T>? = nil, includeSubclasses: Bool = true) throws {
        let request: NSFetchRequest<NSManagedObject> = try FetchDescriptor<T>(predicate: predicate).fetchRequest()
        request.includesSubentities = includeSubclasses
        for object in try managedObjectContext.fetch(request) {
            managedObjectContext.delete(object)
        }
        noteChange()
    }

    /// Whether inserts, deletes or changes wait to be saved.
    public var hasChanges: Bool { managedObjectContext.hasChanges }

    public var insertedModelsArray: [any PersistentModel] { managedObjectContext.insertedObjects.map(model(for:)) }
    public var changedModelsArray: [any PersistentModel] { managedObjectContext.updatedObjects.map(model(for:)) }
    public var deletedModelsArray: [any PersistentModel] { managedObjectContext.deletedObjects.map(model(for:)) }

    public var undoManager: UndoManager? {
        get { managedObjectContext.undoManager }
        set { managedObjectContext.undoManager = newValue }
    }

    /// Saves the changes in one transaction, posting `willSave` and `didSave`.
    public func save() throws {
        autosaveScheduled = false
        guard managedObjectContext.hasChanges else { return }
        NotificationCenter.default.post(name: Self.willSave, object: self)
        let saved = try SavedIdentifiers.saving(managedObjectContext)
        NotificationCenter.default.post(name: Self.didSave, object: self, userInfo: [
            NotificationKey.insertedIdentifiers.rawValue: saved.inserted,
            NotificationKey.updatedIdentifiers.rawValue: saved.updated,
            NotificationKey.deletedIdentifiers.rawValue: saved.deleted,
        ])
    }

    /// Discards the unsaved changes.
    public func rollback() {
        managedObjectContext.rollback()
    }

    /// Runs `block`, then saves; if `block` throws, its changes are rolled back.
    public func transaction(block: () throws -> Void) throws {
        do {
            try block()
        } catch {
            rollback()
            throw error
        }
        try save()
    }

    /// Applies pending change bookkeeping (delete rules, inverse updates) now.
    public func processPendingChanges() {
        managedObjectContext.processPendingChanges()
    }

    /// The model with `persistentModelID`, registered or fetched (a fault until read).
    public func model(for persistentModelID: PersistentIdentifier) -> any PersistentModel {
        guard let objectID = objectID(for: persistentModelID) else {
            preconditionFailure("no model has the identifier \(persistentModelID.uri)")
        }
        return model(for: managedObjectContext.object(with: objectID))
    }

    /// The model with `persistentModelID` if this context has it registered, without fetching.
    public func registeredModel<T: PersistentModel>(for persistentModelID: PersistentIdentifier) -> T? {
        guard let objectID = objectID(for: persistentModelID),
              let object = managedObjectContext.registeredObject(for: objectID) else { return nil }
        return model(for: object) as? T
    }

    func objectID(for identifier: PersistentIdentifier) -> NSManagedObjectID? {
        identifier.objectID ?? managedObjectContext.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: identifier.uri)
    }

    /// The model wrapping `object`, made on first use, of the class of the object's entity (a
    /// subclass's, for an object of a subentity).
    func model(for object: NSManagedObject) -> any PersistentModel {
        let backing = object as! ModelBackingObject
        if let model = backing.model { return model }
        return wrap(backing, as: modelType(of: backing))
    }

    /// The models wrapping `objects`, which a fetch of `T`'s entity returned, in order.
    ///
    /// Typed, so that a model made here needs no cast: when `T`'s entity has no subentities,
    /// every object is a `T`'s and its model is made without looking its class up. A model
    /// made earlier is checked to be a `T` by comparing its class, not by a dynamic cast.
    /// An array, not any collection: iterating an unspecialised collection costs a witness
    /// call and an opaque copy per object. The result is built as class references and then
    /// retyped (the layout is the same), because appending to an array of the unspecialised
    /// `T` goes through the standard library's generic entry point for each model.
    func models<T: PersistentModel>(for objects: [NSManagedObject], as _: T.Type) -> [T] {
        let onlyT = container.schema.entity(of: T.self)?.subentities.isEmpty == true
        var models: [AnyObject] = []
        models.reserveCapacity(objects.count)
        for object in objects {
            let backing = object as! ModelBackingObject
            if let model = backing.model {
                models.append(type(of: model) == T.self ? model : model as! T)
            } else if onlyT {
                models.append(wrap(backing, as: T.self))
            } else {
                models.append(wrap(backing, as: modelType(of: backing)) as! T)
            }
        }
        return unsafeBitCast(models, to: [T].self)
    }

    /// The model class of `object`'s entity.
    private func modelType(of object: ModelBackingObject) -> any PersistentModel.Type {
        guard let type = container.schema.modelType(of: object.entity) else {
            preconditionFailure("entity \(object.entity.name ?? "") has no model class in this container's schema")
        }
        return type
    }

    /// A new model of class `type` around `object`, which remembers it, and holds this context
    /// for it.
    private func wrap<T: PersistentModel>(_ object: ModelBackingObject, as type: T.Type) -> T {
        let model = type.init(_$backingSlot: ModelBackingSlot(object))
        object.join(model, in: self)
        return model
    }

    /// The managed object of `model`, inserting the model (and, through its pending
    /// relationships, the models it refers to) if it has none yet.
    func attach(_ model: any PersistentModel) -> ModelBackingObject {
        let backing = model.persistentBackingData
        if let object = backing.object { return object }
        guard let entity = container.schema.entity(of: type(of: model)) else {
            preconditionFailure("\(type(of: model)) is not in this container's schema")
        }
        let object = ModelBackingObject(entity: entity, insertInto: managedObjectContext, observationRegistrar: backing.observationRegistrar)
        object.join(model, in: self)
        backing.attach(to: object)
        return object
    }

    /// Schedules the autosave after a change.
    func noteChange() {
        guard autosaveEnabled, !autosaveScheduled else { return }
        autosaveScheduled = true
        let target = AutosaveTarget(context: self)
        DispatchQueue.main.async {
            guard target.context.autosaveScheduled else { return }
            try? target.context.save()
        }
    }
}

/// The context an autosave is for, read only on the main queue, where the main context lives.
/// Held strongly until the save: the changes are saved even if nobody else holds the context
/// by then, and no weak reference gives the context a side table (see `init`).
private struct AutosaveTarget: @unchecked Sendable {
    let context: ModelContext
}

extension ModelContext: Hashable, Identifiable {
    public static func == (lhs: ModelContext, rhs: ModelContext) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
