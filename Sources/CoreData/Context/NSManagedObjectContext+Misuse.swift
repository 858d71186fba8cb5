/// Misuse that Apple answers with an exception (relating, inserting or deleting objects of
/// another context): here the call changes nothing and the next `save()` throws the error, so a
/// mistake surfaces where errors are handled instead of ending the process.
extension NSManagedObjectContext {
    func recordMisuse(_ error: NSError) {
        misuseLock.withLock { misuseErrors.append(error) }
    }

    /// Throws (and forgets) the misuse recorded since the last save: one error as it is,
    /// several as 1560.
    func throwRecordedMisuse() throws {
        let errors = misuseLock.withLock {
            defer { misuseErrors = [] }
            return misuseErrors
        }
        try NSManagedObject.throwCombined(errors)
    }

    /// Drops recorded misuse, as `rollback()` and `reset()` drop every unsaved change.
    func forgetRecordedMisuse() {
        misuseLock.withLock { misuseErrors = [] }
    }
}

extension NSManagedObject {
    /// Whether `other` lives in another context than this object: such a relationship cannot be
    /// saved by either, so it is refused and recorded as Apple's 133010 error.
    func refusesExternal(_ other: NSManagedObject, forKey key: String) -> Bool {
        guard let mine = managedObjectContext, let theirs = other.managedObjectContext, mine !== theirs else { return false }
        mine.recordMisuse(CoreDataError.make(NSManagedObjectExternalRelationshipError,
            "Illegal attempt to establish a relationship '\(key)' between objects in different contexts",
            [NSValidationObjectErrorKey: self, NSValidationKeyErrorKey: key, NSValidationValueErrorKey: other,
             NSAffectedObjectsErrorKey: [self, other]]))
        return true
    }
}
