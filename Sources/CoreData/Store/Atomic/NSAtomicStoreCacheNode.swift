/// One object of an atomic store as the store keeps it between loading and saving its file:
/// attribute values by name, the destination's node for a to-one relationship, and a
/// collection of nodes (an `NSSet`, or an `NSOrderedSet` for an ordered relationship) for a
/// to-many one.
///
/// For example:
/// ```swift
/// let node = NSAtomicStoreCacheNode(objectID: objectID(for: personEntity, withReferenceObject: 7))
/// node.setValue("Ada", forKey: "name")
/// node.setValue(departmentNode, forKey: "department")
/// ```
///
/// Subclass it to keep values elsewhere: the store reads and writes nodes only through
/// `value(forKey:)` and `setValue(_:forKey:)`.
open class NSAtomicStoreCacheNode: NSObject, @unchecked Sendable {
    /// The object the node stands for.
    public let objectID: NSManagedObjectID

    /// The values `value(forKey:)` and `setValue(_:forKey:)` read and write; nil until a value
    /// is set.
    open var propertyCache: NSMutableDictionary?

    /// An empty node for the object `moid`; fill it with `setValue(_:forKey:)`.
    public init(objectID moid: NSManagedObjectID) {
        self.objectID = moid
        super.init()
    }

    /// The value of the property `key`, nil when the node holds none.
    open func value(forKey key: String) -> Any? {
        propertyCache?[key]
    }

    /// Sets (or with nil removes) the value of the property `key`.
    open func setValue(_ value: Any?, forKey key: String) {
        guard let value = unwrapOptional(value), !(value is NSNull) else {
            propertyCache?.removeObject(forKey: key)
            return
        }
        if propertyCache == nil { propertyCache = NSMutableDictionary() }
        propertyCache?[key] = value
    }
}
