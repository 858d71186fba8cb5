/// A save's changes as the saving context's objects, the form the public store APIs
/// (`NSSaveChangesRequest`, atomic cache nodes) hand to subclasses.
extension StoreChanges {
    /// The objects the save inserts, updates (an object whose only change is a to-many
    /// membership included) and deletes.
    func objects(in context: NSManagedObjectContext) -> (inserted: Set<NSManagedObject>, updated: Set<NSManagedObject>, deleted: Set<NSManagedObject>) {
        func objects(_ ids: some Sequence<NSManagedObjectID>) -> Set<NSManagedObject> {
            Set(ids.compactMap { context.registeredObject(for: $0) })
        }
        let insertedIDs = Set(inserted.map(\.objectID))
        return (objects(insertedIDs),
                objects(updated.map(\.row.objectID) + toMany.map(\.source).filter { !insertedIDs.contains($0) }),
                objects(deleted.map(\.objectID)))
    }
}
