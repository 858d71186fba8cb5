// Apple's Core Data error codes (NSCocoaErrorDomain) and userInfo keys, which Foundation on Linux
// does not declare.

/// A value failed validation; the generic code, and what a misused key records (1550).
public let NSManagedObjectValidationError = 1550
/// Apple's code for a uniqueness constraint broken at validation; not thrown here (conflicts throw 133021).
public let NSManagedObjectConstraintValidationError = 1551
/// Several validation errors at once; they are listed under `NSDetailedErrorsKey`.
public let NSValidationMultipleErrorsError = 1560
/// A mandatory property is nil.
public let NSValidationMissingMandatoryPropertyError = 1570
/// A to-many relationship has fewer objects than its `minCount`.
public let NSValidationRelationshipLacksMinimumCountError = 1580
/// A to-many relationship has more objects than its `maxCount`.
public let NSValidationRelationshipExceedsMaximumCountError = 1590
/// A delete was refused by a deny rule: the relationship still has destinations.
public let NSValidationRelationshipDeniedDeleteError = 1600
/// A number is above the attribute's maximum.
public let NSValidationNumberTooLargeError = 1610
/// A number is below the attribute's minimum.
public let NSValidationNumberTooSmallError = 1620
/// A date is after the attribute's latest allowed date.
public let NSValidationDateTooLateError = 1630
/// A date is before the attribute's earliest allowed date.
public let NSValidationDateTooSoonError = 1640
/// Apple's code for an invalid date; not thrown here.
public let NSValidationInvalidDateError = 1650
/// A string is longer than the attribute allows.
public let NSValidationStringTooLongError = 1660
/// A string is shorter than the attribute allows.
public let NSValidationStringTooShortError = 1670
/// A string does not match the attribute's regular expression.
public let NSValidationStringPatternMatchingError = 1680
/// Apple's code for a context locking failure; not thrown here.
public let NSManagedObjectContextLockingError = 132000
/// Apple's code for a coordinator locking failure; not thrown here.
public let NSPersistentStoreCoordinatorLockingError = 132010
/// An object's row no longer exists (a fault that cannot be fulfilled, a URI to nothing).
public let NSManagedObjectReferentialIntegrityError = 133000
/// A relationship points to an object of another context or store.
public let NSManagedObjectExternalRelationshipError = 133010
/// Rows changed in the store since the context read them, and the merge policy is the error policy.
public let NSManagedObjectMergeError = 133020
/// Objects broke a uniqueness constraint; the conflicts are under `NSPersistentStoreSaveConflictsErrorKey`.
public let NSManagedObjectConstraintMergeError = 133021
/// The store type is unknown, or the operation does not apply to it.
public let NSPersistentStoreInvalidTypeError = 134000
/// Apple's code for a store of another type than asked; not thrown here.
public let NSPersistentStoreTypeMismatchError = 134010
/// Apple's code for a schema the store cannot use; not thrown here (a model mismatch is 134100).
public let NSPersistentStoreIncompatibleSchemaError = 134020
/// A store could not write a save.
public let NSPersistentStoreSaveError = 134030
/// Apple's code for a save written only in part; not thrown here (a save is one transaction).
public let NSPersistentStoreIncompleteSaveError = 134040
/// Apple's code for conflicts found by the store at save; not thrown here (see 133020).
public let NSPersistentStoreSaveConflictsError = 134050
/// A general Core Data error, such as a query generation token from another coordinator.
public let NSCoreDataError = 134060
/// A store operation failed.
public let NSPersistentStoreOperationError = 134070
/// A store could not be opened (a missing file, an orphaned WAL, a model that cannot be found).
public let NSPersistentStoreOpenError = 134080
/// Apple's code for a store that timed out waiting for a lock; not thrown here.
public let NSPersistentStoreTimeoutError = 134090
/// The store cannot execute this kind of request (history on an untracked store, batches on an atomic store).
public let NSPersistentStoreUnsupportedRequestTypeError = 134091
/// The store was written with another model and was not migrated.
public let NSPersistentStoreIncompatibleVersionHashError = 134100
/// A migration failed; the store is left as it was.
public let NSMigrationError = 134110
/// Apple's code for a cancelled migration; here `migrateStore` throws the error given to `cancelMigrationWithError(_:)`.
public let NSMigrationCancelledError = 134120
/// The model the store was written with cannot be found.
public let NSMigrationMissingSourceModelError = 134130
/// No mapping model exists between the store's model and the current one.
public let NSMigrationMissingMappingModelError = 134140
/// Apple's code for a migration source store that cannot be opened; not thrown here.
public let NSMigrationManagerSourceStoreError = 134150
/// Apple's code for a migration destination store that cannot be written; not thrown here.
public let NSMigrationManagerDestinationStoreError = 134160
/// An entity migration policy failed.
public let NSEntityMigrationPolicyError = 134170
/// A mapping model cannot be inferred (an unconvertible type, a mandatory attribute without a default).
public let NSInferredMappingModelError = 134190
/// Apple's code for a SQLite failure; not thrown here (SQLite's own codes are reported).
public let NSSQLiteError = 134180
/// Fetching history after a token whose following transactions were deleted.
public let NSPersistentHistoryTokenExpiredError = 134301

/// `userInfo` key: the individual errors of a 1560 error.
public let NSDetailedErrorsKey = "NSDetailedErrors"
/// `userInfo` key: the object that failed validation.
public let NSValidationObjectErrorKey = "NSValidationErrorObject"
/// `userInfo` key: the property that failed validation.
public let NSValidationKeyErrorKey = "NSValidationErrorKey"
/// `userInfo` key: the validation predicate that failed.
public let NSValidationPredicateErrorKey = "NSValidationErrorPredicate"
/// `userInfo` key: the value that failed validation.
public let NSValidationValueErrorKey = "NSValidationErrorValue"
/// `userInfo` key: the stores the error concerns.
public let NSAffectedStoresErrorKey = "NSAffectedStoresErrorKey"
/// `userInfo` key: the objects the error concerns.
public let NSAffectedObjectsErrorKey = "NSAffectedObjectsErrorKey"
/// `userInfo` key: the conflicts (`NSMergeConflict` or `NSConstraintConflict`) that failed a save.
public let NSPersistentStoreSaveConflictsErrorKey = "conflictList"
/// Apple's error domain for SQLite failures; declared for matching, not used here.
public let NSSQLiteErrorDomain = "NSSQLiteErrorDomain"
