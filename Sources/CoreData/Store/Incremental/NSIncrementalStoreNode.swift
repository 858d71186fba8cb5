/// One object's stored values as an `NSIncrementalStore` subclass reports them from
/// `newValuesForObject(with:with:)`: attributes by name, to-one relationships as the
/// destination's `NSManagedObjectID` (`NSNull` for none), and the row's version, which must
/// grow with each save of the row.
///
/// For example:
/// ```swift
/// NSIncrementalStoreNode(objectID: objectID, withValues: ["title": "Notes", "folder": folderID], version: 3)
/// ```
open class NSIncrementalStoreNode: NSObject, @unchecked Sendable {
    /// The object these values belong to.
    public let objectID: NSManagedObjectID
    /// The row's version, which optimistic locking compares; it must grow with each save of the row.
    public private(set) var version: UInt64
    private var values: [String: Any]

    /// Values by property name for `objectID`, at `version`.
    public init(objectID: NSManagedObjectID, withValues values: [String: Any], version: UInt64) {
        self.objectID = objectID
        self.values = values
        self.version = version
    }

    /// Replaces the values given (keys not given keep theirs) and the version.
    open func update(withValues values: [String: Any], version: UInt64) {
        self.values.merge(values) { _, new in new }
        self.version = version
    }

    /// The value of `prop`, or nil when the node holds none (`NSNull` stands for a stored nil).
    open func value(for prop: NSPropertyDescription) -> Any? {
        values[prop.name]
    }
}
