/// The rows a fetch read for the objects it returned as faults, kept in the order the store
/// returned them: each fault points at its row here by position, and takes it when it fires.
///
/// One array shared by a fetch's faults, instead of a table keyed by object ID: a row costs its
/// 24 bytes here rather than a hash-table bucket and a third of the table's empty space, and a
/// fault finds its row without hashing its ID. The array is the one the store returned, so
/// keeping the rows copies nothing. It lives as long as a fault points at it; a fired fault
/// leaves an empty row in its place, so its values belong to the object alone (a write to
/// them does not copy them).
final class FetchedRows {
    private var rows: [RowSnapshot]

    init(_ rows: consuming [RowSnapshot]) {
        precondition(rows.count <= Int(UInt32.max), "a fetch of more than 2^32 rows")
        self.rows = rows
    }

    var count: Int { rows.count }

    var indices: Range<Int> { rows.indices }

    subscript(slot: Int) -> RowSnapshot { rows[slot] }

    /// The row at `slot`, leaving a row with no values in its place.
    func take(_ slot: Int) -> RowSnapshot {
        let row = rows[slot]
        rows[slot].dropValues()
        return row
    }

    /// Names temporary IDs by their permanent ones in the row at `slot` (a child context's
    /// rows may name objects its parent had not saved).
    func replaceIDs(_ permanentIDs: [NSManagedObjectID: NSManagedObjectID], at slot: Int, objectID: NSManagedObjectID) {
        rows[slot] = rows[slot].replacingIDs(permanentIDs, objectID: objectID)
    }
}
