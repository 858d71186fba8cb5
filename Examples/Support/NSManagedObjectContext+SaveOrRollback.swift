import CoreData

extension NSManagedObjectContext {
    /// Saves, or, when the save fails (a validation error), undoes every unsaved change so the
    /// program goes on from the last good state, then rethrows for the one-line message.
    public func saveOrRollback() throws {
        do {
            try save()
        } catch {
            rollback()
            throw error
        }
    }
}
