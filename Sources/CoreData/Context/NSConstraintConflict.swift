/// Objects that break one uniqueness constraint at save: several objects being saved with the
/// same constrained values, or objects being saved that collide with a stored row.
///
/// Listed under `NSPersistentStoreSaveConflictsErrorKey` of the 133021 error a save throws under
/// `NSErrorMergePolicy`.
open class NSConstraintConflict: NSObject {
    /// The constrained property names, as declared in `uniquenessConstraints`.
    public let constraint: [String]
    /// The values the conflicting objects share, by property name (`NSNull` for nil).
    public let constraintValues: [String: Any]
    /// The object of the stored row the saved objects collide with; nil when the conflict is only
    /// among the objects being saved.
    public let databaseObject: NSManagedObject?
    /// The stored row's values; nil when there is no database object.
    public let databaseSnapshot: [String: Any]?
    /// The objects being saved that share the constrained values.
    public let conflictingObjects: [NSManagedObject]
    /// Each conflicting object's values as they were when the conflict was found.
    public let conflictingSnapshots: [[AnyHashable: Any]]

    /// Describes one conflict; the constraint values are read from the first conflicting object.
    public init(constraint contraint: [String], database databaseObject: NSManagedObject?,
                databaseSnapshot: [String: Any]?, conflicting conflictingObjects: [NSManagedObject],
                conflictingSnapshots: [Any]) {
        self.constraint = contraint
        self.databaseObject = databaseObject
        self.databaseSnapshot = databaseSnapshot
        self.conflictingObjects = conflictingObjects
        self.conflictingSnapshots = conflictingSnapshots.compactMap { $0 as? [AnyHashable: Any] }
        var values: [String: Any] = [:]
        let source = conflictingObjects.first
        for name in contraint { values[name] = source?.value(forKey: name) ?? databaseSnapshot?[name] ?? NSNull() }
        self.constraintValues = values
    }
}
