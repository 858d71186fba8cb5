/// Model key names for Swift key paths rooted in classes that are not managed objects: the
/// `@Model` classes of the SwiftData module, which declare their key paths' names themselves
/// (in their schema metadata) instead of being probed.
///
/// `#Predicate` and `SortDescriptor` translation asks here when a key path's root is not an
/// `NSManagedObject` subclass, so one translator serves both modules.
package enum ForeignKeyPathNaming {
    private static let names = Locked<[AnyKeyPath: String]>([:])

    /// The name of a key path to the object's own identity (SwiftData's `persistentModelID`),
    /// which a predicate compares as the object.
    package static let identity = "SELF"

    /// Records `name` as the model key of `keyPath`.
    package static func register(_ name: String, for keyPath: AnyKeyPath) {
        names.withLock { $0[keyPath] = name }
    }

    static func name(for keyPath: AnyKeyPath) -> String? {
        names.withLock { $0[keyPath] }
    }
}
