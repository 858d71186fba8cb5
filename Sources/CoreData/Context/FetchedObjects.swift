/// The objects a fetch matched and, when it read every one of them from the store in one
/// query, the rows it read, position for position.
///
/// A fault keeps its row in the context's row cache until it fires; a caller that reads keys
/// of every fetched fault (the fetched results controller) takes the row from here instead of
/// hashing each object's ID into that cache again.
struct FetchedObjects {
    let objects: [NSManagedObject]
    /// Parallel to `objects`; nil when unsaved changes were folded in or rows came in batches.
    let rows: [RowSnapshot]?

    /// The row the fetch left for `object`, the fault at `position`, laid out as the object
    /// is; nil for an object that is not a fault (its values are its own) or has no such row.
    func readAheadRow(of object: NSManagedObject, at position: Int) -> RowSnapshot? {
        guard object.faultFlag else { return nil }
        guard let rows else { return ResultKeyPath.readAheadRow(of: object) }
        let row = rows[position]
        return row.values.index === object.propertyIndex ? row : nil
    }
}
