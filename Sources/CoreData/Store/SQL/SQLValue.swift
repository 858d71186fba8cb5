/// One value bound to, or read from, an SQLite statement.
///
/// Why it stays beside `StoredValue`: it is a column's storage class, not an attribute's value.
/// A stored value's column form depends on its attribute (a date is a `real`, a UUID a 16-byte
/// `blob`, a decimal exact `text`), and the statements that carry no attribute at all (key
/// arrays, `Z_PRIMARYKEY`, history rows, schema checks) bind these alone. `SQLValueCoding` is the one converter between the two.
package enum SQLValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

extension SQLValue {
    /// The primary keys of `ids` as one JSON array, bound to a single placeholder and read back
    /// with `json_each`: one statement shape, and no limit on bound parameters, for any count.
    static func keyArray(_ ids: some Sequence<NSManagedObjectID>) -> SQLValue {
        .text("[" + ids.compactMap { $0.primaryKey.map(String.init) }.joined(separator: ",") + "]")
    }
}
