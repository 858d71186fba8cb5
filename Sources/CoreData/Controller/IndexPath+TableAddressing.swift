/// UIKit's and AppKit's `IndexPath` conveniences, which Linux Foundation leaves out.
///
/// The fetched results controller speaks in two-element index paths (section, row); table and
/// collection code ported from Apple platforms reads them with these names.
extension IndexPath {
    /// An index path for a table row.
    ///
    /// For example:
    /// ```swift
    /// let first = IndexPath(row: 0, section: 0)
    /// ```
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
    }

    /// An index path for a collection item.
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// The first index.
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }

    /// The second index.
    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// The second index, as collection views name it.
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}

extension IndexPath {
    init(_ address: RowAddress) {
        self.init(indexes: [address.section, address.row])
    }
}
