/// How a save resolves rows that changed in the store since the context read them.
public enum NSMergePolicyType: UInt, Sendable {
    /// Fail the save with 133020 and the list of conflicts.
    case errorMergePolicyType = 0
    /// Merge property by property; where both sides changed a property, the store's value wins.
    case mergeByPropertyStoreTrumpMergePolicyType = 1
    /// Merge property by property; where both sides changed a property, the context's value wins.
    case mergeByPropertyObjectTrumpMergePolicyType = 2
    /// Write the context's objects whole over the stored rows.
    case overwriteMergePolicyType = 3
    /// Drop the context's changes to conflicting objects and keep the stored rows.
    case rollbackMergePolicyType = 4
}

/// A conflict-resolution strategy, set as a context's `mergePolicy`.
open class NSMergePolicy: NSObject, @unchecked Sendable {
    /// Which of the five strategies this policy applies.
    public let mergeType: NSMergePolicyType

    /// The policy of `type`; the static members hold one of each.
    public init(merge type: NSMergePolicyType) {
        self.mergeType = type
    }

    /// Fail the save with error 133020, listing the conflicts (the default).
    public static let error = NSMergePolicy(merge: .errorMergePolicyType)
    /// For properties changed in both places, the store's value wins.
    public static let mergeByPropertyStoreTrump = NSMergePolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType)
    /// For properties changed in both places, the context's value wins.
    public static let mergeByPropertyObjectTrump = NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
    /// The context's whole objects replace the stored rows.
    public static let overwrite = NSMergePolicy(merge: .overwriteMergePolicyType)
    /// The context's changes to conflicting objects are discarded for the store's.
    public static let rollback = NSMergePolicy(merge: .rollbackMergePolicyType)
}

/// The error policy, as an untyped value for `mergePolicy`.
nonisolated(unsafe) public let NSErrorMergePolicy: Any = NSMergePolicy.error
/// The store-trump policy, as an untyped value for `mergePolicy`.
nonisolated(unsafe) public let NSMergeByPropertyStoreTrumpMergePolicy: Any = NSMergePolicy.mergeByPropertyStoreTrump
/// The object-trump policy, as an untyped value for `mergePolicy`.
nonisolated(unsafe) public let NSMergeByPropertyObjectTrumpMergePolicy: Any = NSMergePolicy.mergeByPropertyObjectTrump
/// The overwrite policy, as an untyped value for `mergePolicy`.
nonisolated(unsafe) public let NSOverwriteMergePolicy: Any = NSMergePolicy.overwrite
/// The rollback policy, as an untyped value for `mergePolicy`.
nonisolated(unsafe) public let NSRollbackMergePolicy: Any = NSMergePolicy.rollback

/// One object whose stored row changed under a saving context.
open class NSMergeConflict: NSObject {
    /// The object of the context whose row changed.
    public let sourceObject: NSManagedObject
    /// The object's values in the context.
    public let objectSnapshot: [String: Any]?
    /// The values the context last read.
    public let cachedSnapshot: [String: Any]?
    /// The values now in the store; nil when the row was deleted.
    public let persistedSnapshot: [String: Any]?
    /// The row's version (`Z_OPT`) in the store now; 0 when the row was deleted.
    public let newVersionNumber: Int
    /// The row's version when the context last read it.
    public let oldVersionNumber: Int

    init(source: NSManagedObject, objectSnapshot: [String: Any]?, cachedSnapshot: [String: Any]?,
         persistedSnapshot: [String: Any]?, newVersion: Int, oldVersion: Int) {
        self.sourceObject = source
        self.objectSnapshot = objectSnapshot
        self.cachedSnapshot = cachedSnapshot
        self.persistedSnapshot = persistedSnapshot
        self.newVersionNumber = newVersion
        self.oldVersionNumber = oldVersion
    }
}
