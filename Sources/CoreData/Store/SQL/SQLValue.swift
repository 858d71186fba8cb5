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

/// A column read as another type than it holds, as SQLite converts: what `SQLRow`'s typed reads
/// answer for a value already read (`SQLValueRow`, and a PostgreSQL cell whose type is not the
/// one asked for).
extension SQLValue {
    package var storageClass: SQLStorageClass {
        switch self {
        case .null: .null
        case .integer: .integer
        case .real: .real
        case .text: .text
        case .blob: .blob
        }
    }

    package var int64Value: Int64 {
        switch self {
        case .integer(let number): number
        case .real(let number): Int64(number)
        case .text(let text): Int64(text) ?? 0
        default: 0
        }
    }

    package var doubleValue: Double {
        switch self {
        case .integer(let number): Double(number)
        case .real(let number): number
        case .text(let text): Double(text) ?? 0
        default: 0
        }
    }

    /// Numbers as text; a blob as UTF-8; NULL as "".
    package var textValue: String {
        switch self {
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .text(let text): text
        case .blob(let bytes): String(decoding: bytes, as: UTF8.self)
        case .null: ""
        }
    }
}
