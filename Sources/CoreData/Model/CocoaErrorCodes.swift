// Core Data's error codes and userInfo keys in `NSCocoaErrorDomain`.
//
// Apple declares these in CoreData's `CoreDataErrors.h`; Foundation on Linux has none of them
// (checked with a probe against Swift 6.3.1), so ported code that compares `error.code` with
// `NSValidationNumberTooLargeError` or reads `userInfo[NSDetailedErrorsKey]` needs them here.
// Values and key strings are Apple's, so errors look the same in logs on both platforms.

// MARK: Validation

/// A generic validation failure.
public let NSManagedObjectValidationError = 1550
/// A uniqueness constraint is violated.
public let NSManagedObjectConstraintValidationError = 1551
/// Several validation errors, listed under `NSDetailedErrorsKey`.
public let NSValidationMultipleErrorsError = 1560
/// A non-optional property is nil.
public let NSValidationMissingMandatoryPropertyError = 1570
/// A to-many relationship holds fewer objects than its `minCount`.
public let NSValidationRelationshipLacksMinimumCountError = 1580
/// A to-many relationship holds more objects than its `maxCount`.
public let NSValidationRelationshipExceedsMaximumCountError = 1590
/// A relationship with the deny delete rule is not empty.
public let NSValidationRelationshipDeniedDeleteError = 1600
/// A number is above the attribute's maximum.
public let NSValidationNumberTooLargeError = 1610
/// A number is below the attribute's minimum.
public let NSValidationNumberTooSmallError = 1620
/// A date is after the attribute's maximum.
public let NSValidationDateTooLateError = 1630
/// A date is before the attribute's minimum.
public let NSValidationDateTooSoonError = 1640
/// A date is not valid.
public let NSValidationInvalidDateError = 1650
/// A string is longer than the attribute's maximum length.
public let NSValidationStringTooLongError = 1660
/// A string is shorter than the attribute's minimum length.
public let NSValidationStringTooShortError = 1670
/// A string does not match the attribute's regular expression.
public let NSValidationStringPatternMatchingError = 1680
/// A URI is not valid.
public let NSValidationInvalidURIError = 1690

// MARK: Contexts, coordinators and merging

public let NSManagedObjectContextLockingError = 132000
public let NSPersistentStoreCoordinatorLockingError = 132010
/// A fault fired for an object whose row no longer exists.
public let NSManagedObjectReferentialIntegrityError = 133000
/// A saved object has a relationship to an object in another store.
public let NSManagedObjectExternalRelationshipError = 133010
/// The merge policy could not resolve an optimistic-locking conflict.
public let NSManagedObjectMergeError = 133020
/// The merge policy could not resolve a uniqueness-constraint conflict.
public let NSManagedObjectConstraintMergeError = 133021

// MARK: Persistent stores

public let NSPersistentStoreInvalidTypeError = 134000
public let NSPersistentStoreTypeMismatchError = 134010
public let NSPersistentStoreIncompatibleSchemaError = 134020
public let NSPersistentStoreSaveError = 134030
public let NSPersistentStoreIncompleteSaveError = 134040
/// Optimistic-locking failures during a save; conflicts under `NSPersistentStoreSaveConflictsErrorKey`.
public let NSPersistentStoreSaveConflictsError = 134050
/// A Core Data error without a more specific code.
public let NSCoreDataError = 134060
public let NSPersistentStoreOperationError = 134070
public let NSPersistentStoreOpenError = 134080
public let NSPersistentStoreTimeoutError = 134090
public let NSPersistentStoreUnsupportedRequestTypeError = 134091
/// The store was written with a model whose entity version hashes differ from this model's.
public let NSPersistentStoreIncompatibleVersionHashError = 134100
public let NSMigrationError = 134110
public let NSMigrationMissingSourceModelError = 134130
public let NSMigrationMissingMappingModelError = 134140
public let NSSQLiteError = 134180

// MARK: userInfo keys

/// The errors collected when one operation fails several validations.
public let NSDetailedErrorsKey = "NSDetailedErrors"
/// The object that failed to validate.
public let NSValidationObjectErrorKey = "NSValidationErrorObject"
/// The name of the property that failed to validate.
public let NSValidationKeyErrorKey = "NSValidationErrorKey"
/// The validation predicate the value did not satisfy.
public let NSValidationPredicateErrorKey = "NSValidationErrorPredicate"
/// The value that failed to validate.
public let NSValidationValueErrorKey = "NSValidationErrorValue"
/// The stores involved in the error.
public let NSAffectedStoresErrorKey = "NSAffectedStoresErrorKey"
/// The objects involved in the error.
public let NSAffectedObjectsErrorKey = "NSAffectedObjectsErrorKey"
/// The merge or constraint conflicts that made a save fail.
public let NSPersistentStoreSaveConflictsErrorKey = "conflictList"
