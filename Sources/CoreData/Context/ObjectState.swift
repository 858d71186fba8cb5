/// Everything a managed object holds beyond its identity and context: its values, the row it
/// was read from, what changed, its life-cycle flags.
///
/// Kept out of the object so that a fault that never held anything is the object alone
/// (40 bytes: a 48-byte heap block): a batched fetch of a million rows makes a million faults
/// and touches a few hundred. The state is allocated when the object first needs it (a value
/// set, a fault fired, an insertion); a fault made by a refresh keeps its state, and with it
/// the row version and the bookkeeping it had.
final class ObjectState {
    // Performance: read and written on every property access, only on the context's queue;
    // see `NSManagedObject` for why the exclusivity check is dropped.

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

    init(entity: NSEntityDescription, isFault: Bool, fetchBatch: FetchBatch?) {
        values = ObjectValues(entity: entity)
        changedKeys = ChangedKeys(index: values.index)
        self.isFault = isFault
        self.fetchBatch = fetchBatch
    }
}

/// How a managed object holds its state: inline while it has none, so that the common fault
/// costs no allocation beyond the object. One word: the cases without state need no payload
/// but the batch, and Swift packs the four cases into the references' spare bits.
enum ObjectStorage {
    /// A new object before its first value.
    case blank
    /// A fault that never held state.
    case fault
    /// A fault that never held state, whose row comes with the batch of a batched fetch.
    case batchedFault(FetchBatch)
    /// An object with state: fired, inserted, changed, or turned back into a fault.
    case state(ObjectState)
}
