/// What an object ID says, read without an `NSManagedObjectID`: a key, the entity, and the store
/// (nil while temporary). An ID, a fetch's key list and a batched fault each give one, so the
/// context can find and compare objects that never made their ID (see `RegisteredObjects`).
///
/// Transient by design: the references are `unowned(unsafe)`, borrowed from the ID, list or
/// object the name was read from, which outlives it; a comparison then costs no retain or
/// release. Never store one.
struct ObjectName {
    /// The primary key (Z_PK) of a permanent ID, the process-wide counter of a temporary one.
    let key: Int64
    unowned(unsafe) let entity: NSEntityDescription
    unowned(unsafe) let store: NSPersistentStore?

    /// True for the same object: the same key, and then the same store and root entity (a row
    /// fetched as its sub-entity and named by its root entity is one object). Temporary keys
    /// come from one counter, so the key alone decides between two temporary names.
    static func == (lhs: ObjectName, rhs: ObjectName) -> Bool {
        guard lhs.key == rhs.key else { return false }
        switch (lhs.store, rhs.store) {
        case (nil, nil):
            return true
        case let (left?, right?):
            if left === right && lhs.entity === rhs.entity { return true }
            return left.identifier == right.identifier && lhs.entity.rootEntity.name == rhs.entity.rootEntity.name
        default:
            return false
        }
    }
}
