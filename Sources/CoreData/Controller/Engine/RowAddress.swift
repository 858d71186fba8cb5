/// Where a row sits in a sectioned result: the engine's own index path.
///
/// The engine works in these plain pairs rather than `IndexPath` so its hot loops stay free of
/// `IndexPath`'s enum storage; the controller converts at the delegate boundary.
struct RowAddress: Hashable, Comparable, Sendable, CustomStringConvertible {
    var section: Int
    var row: Int

    init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    static func < (lhs: RowAddress, rhs: RowAddress) -> Bool {
        lhs.section != rhs.section ? lhs.section < rhs.section : lhs.row < rhs.row
    }

    var description: String { "[\(section), \(row)]" }
}
