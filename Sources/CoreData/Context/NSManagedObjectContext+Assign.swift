/// Choosing the store a new object is saved to.
extension NSManagedObjectContext {
    /// Saves the new `object` to `store`.
    ///
    /// A coordinator here routes every entity to one store (see README), so the store must be
    /// that one; anything else (another coordinator's store, a second store, an object that is
    /// not new in this context) cannot be honoured and makes the next `save()` throw, where
    /// Apple raises.
    public func assign(_ object: Any, to store: NSPersistentStore) {
        guard let object = object as? NSManagedObject, object.managedObjectContext === self, object.isInserted else {
            recordMisuse(CoreDataError.misuse("assign(_:to:) takes an object newly inserted into this context",
                                              [NSAffectedObjectsErrorKey: [object]]))
            return
        }
        guard let coordinator = persistentStoreCoordinator, let target = try? coordinator.store(for: object.entity),
              target === store else {
            recordMisuse(CoreDataError.misuse(
                "assign(_:to:): \(object.entity.name ?? "the object")'s rows are kept in this coordinator's first store; no other store can hold it",
                [NSAffectedObjectsErrorKey: [object], NSAffectedStoresErrorKey: [store]]))
            return
        }
    }
}
