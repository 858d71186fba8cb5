/// Everything a managed object holds beyond its context: its ID, its values, the row it was
/// read from, what changed, its life-cycle flags.
///
/// Kept out of the object so that a fault that never held anything is the object alone
/// (at most 40 bytes: a 48-byte heap block): a batched fetch of a million rows makes a million
/// faults and touches a few hundred. The state is allocated when the object first needs it (a value
/// set, a fault fired, an insertion); a fault made by a refresh keeps its state, and with it
/// the row version and the bookkeeping it had.
final class ObjectState {
    // Performance: read and written on every property access, only on the context's queue;
    // see `NSManagedObject` for why the exclusivity check is dropped.

    /// The object's identity: temporary until its first save, then permanent.
    @exclusivity(unchecked) var objectID: NSManagedObjectID
    /// Current values by property ordinal (see `ObjectValues`).
    @exclusivity(unchecked) var values: ObjectValues
    /// The row this object was read from or last saved as; nil for a new object.
    @exclusivity(unchecked) var committed: RowSnapshot?
    /// Properties changed since the last save.
    @exclusivity(unchecked) var changedKeys: ChangedKeys
    @exclusivity(unchecked) var isInserted = false
    @exclusivity(unchecked) var isDeleted = false
    @exclusivity(unchecked) var isFault: Bool
    /// The pending batch of a batched fetch this fault's row will be read with.
    @exclusivity(unchecked) var fetchBatch: FetchBatch?
    /// What only changed, inserted or misused objects need (see `ObjectBookkeeping`).
    @exclusivity(unchecked) var bookkeeping: ObjectBookkeeping?

    init(objectID: NSManagedObjectID, isFault: Bool, fetchBatch: FetchBatch?) {
        self.objectID = objectID
        values = ObjectValues(entity: objectID.entity)
        changedKeys = ChangedKeys(index: values.index)
        self.isFault = isFault
        self.fetchBatch = fetchBatch
    }

    /// The state of a fault filled from `row`, made in one step: what every object a fetch
    /// materialises and every fault that fires needs, without making empty values first and
    /// setting each part after.
    init(objectID: NSManagedObjectID, filledFrom row: RowSnapshot) {
        self.objectID = objectID
        values = ObjectValues(row: row.values)
        committed = row
        changedKeys = ChangedKeys(index: values.index)
        isFault = false
    }
}

/// How a managed object holds its ID and state: inline while it has no state, so that the
/// common fault costs no allocation beyond the object, and a batched fault not even its ID.
/// Twelve bytes: a fault's slot and the references' spare bits, where Swift keeps the case.
enum ObjectStorage {
    /// A new object before its first value, or a fault before its context names it. Its
    /// temporary ID is made with its state, when something first asks: a fault made by a
    /// context never needs one (a counter every thread shares, and an allocation).
    case blank(NSEntityDescription)
    /// A fault that never held state.
    case fault(NSManagedObjectID)
    /// A fault that never held state, whose row comes with the batch of a batched fetch and
    /// whose ID is the batch's member at `slot`, made only when asked for.
    case batchedFault(FetchBatch, slot: UInt32)
    /// A fault that never held state, returned by an unbatched fetch, whose row waits in that
    /// fetch's rows at `slot` (and whose ID is that row's).
    case fetchedFault(FetchedRows, slot: UInt32)
    /// An object with state: fired, inserted, changed, or turned back into a fault.
    case state(ObjectState)
}
