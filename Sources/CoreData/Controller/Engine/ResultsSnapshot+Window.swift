/// `fetchOffset` / `fetchLimit`: the part of the ordered results a limited request shows.
extension ResultsSnapshot {
    /// The rows at positions `offset ..< offset + limit` of the key order, regrouped.
    ///
    /// O(n). A limited controller diffs windows with `difference(to:)`: an object pushed out
    /// of the window is then a deletion and one pulled in an insertion, as a refetch would see.
    func window(offset: Int, limit: Int?) -> ResultsSnapshot {
        // Sections are contiguous in key order whenever the first sort key is the section key.
        let rows = Self.sorted(self.rows, by: areInIncreasingOrder)
        let start = Swift.min(Swift.max(offset, 0), rows.count)
        let end = limit.map { Swift.min(start + Swift.max($0, 0), rows.count) } ?? rows.count
        return ResultsSnapshot(sortedRows: rows[start..<end], areInIncreasingOrder: areInIncreasingOrder)
    }
}
