/// One changed object handed to the incremental engine.
///
/// The caller has already evaluated the object against the fetch request: `placement` says
/// where it belongs now (its new sort key and section name), or is `nil` when it no longer
/// belongs to the results (deleted, or its predicate stopped matching).
struct RowChange<ID: Hashable, Key> {
    /// Where a changed object belongs after the change.
    struct Placement {
        var key: Key
        var section: String
    }

    var id: ID
    var placement: Placement?
    /// An attribute edit or a refreshed relationship: the row must be redrawn even if it stays.
    var contentChanged: Bool

    init(id: ID, placement: Placement?, contentChanged: Bool) {
        self.id = id
        self.placement = placement
        self.contentChanged = contentChanged
    }

    /// An object that belongs to the results after the change.
    static func present(_ id: ID, key: Key, section: String, contentChanged: Bool = true) -> Self {
        RowChange(id: id, placement: Placement(key: key, section: section), contentChanged: contentChanged)
    }

    /// An object that does not belong to the results after the change.
    static func absent(_ id: ID) -> Self {
        RowChange(id: id, placement: nil, contentChanged: false)
    }
}
