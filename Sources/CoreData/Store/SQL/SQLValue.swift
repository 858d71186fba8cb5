/// One value bound to, or read from, an SQLite statement.
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
