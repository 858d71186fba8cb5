import Foundation
import NIOCore
import PostgresNIO

/// One result row as postgres-nio received it, read column by column straight from its cells
/// (binary format) as the store's `SQLRow`: no values are decoded ahead, and none but the ones
/// the reader asks for.
///
/// A column's storage class follows its PostgreSQL type, as the store's tables declare them:
/// int2/4/8 and bool are integers, float4/8 reals, bytea blobs, numeric (what `SUM` and `AVG`
/// of integers answer) an integer when whole, as SQLite returns it, else a real; every other
/// type is text.
struct PostgresNIORow: SQLRow {
    let cells: PostgresRandomAccessRow

    init(_ row: PostgresRow) {
        cells = PostgresRandomAccessRow(row)
    }

    var columnCount: Int32 { Int32(cells.count) }

    /// The cell of `column`, read as binary: postgres-nio asks for every result in the binary
    /// format, but up to 1.33.2 labels the cells of a prepared statement's rows as text, the
    /// format a statement's description always names (postgres-nio issue 303).
    private func binaryCell(at column: Int32) -> PostgresCell {
        var cell = cells[Int(column)]
        cell.format = .binary
        return cell
    }

    func value(at column: Int32) -> SQLValue { Self.value(of: binaryCell(at: column)) }

    func int64(at column: Int32) -> Int64 {
        let cell = binaryCell(at: column)
        switch cell.dataType {
        case .int8, .int4, .int2: return (try? cell.decode(Int64.self)) ?? 0
        default: return Self.value(of: cell).int64Value
        }
    }

    func double(at column: Int32) -> Double {
        let cell = binaryCell(at: column)
        switch cell.dataType {
        case .float8, .float4: return (try? cell.decode(Double.self)) ?? 0
        default: return Self.value(of: cell).doubleValue
        }
    }

    func text(at column: Int32) -> String { Self.value(of: binaryCell(at: column)).textValue }

    /// The class `value(of:)` decodes the cell into, read from its type alone (numeric aside).
    func storageClass(at column: Int32) -> SQLStorageClass {
        let cell = binaryCell(at: column)
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int8, .int4, .int2, .bool: return .integer
        case .float8, .float4: return .real
        case .bytea: return .blob
        case .numeric: return Self.value(of: cell).storageClass
        default: return .text
        }
    }

    /// The cell as the value the store expects for its type. A cell that does not decode as
    /// its type (the server sends well-formed binary values, so this stands for "cannot
    /// happen") reads as NULL.
    private static func value(of cell: PostgresCell) -> SQLValue {
        guard cell.bytes != nil else { return .null }
        do {
            switch cell.dataType {
            case .int8, .int4, .int2: return .integer(try cell.decode(Int64.self))
            case .float8, .float4: return .real(try cell.decode(Double.self))
            case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
            case .bytea: return .blob(Array(buffer: try cell.decode(ByteBuffer.self)))
            case .numeric:
                // Decoded through Decimal: the binary format is not text.
                let text = "\(try cell.decode(Decimal.self))"
                if let whole = Int64(text) { return .integer(whole) }
                return .real(Double(text) ?? 0)
            default: return .text(try cell.decode(String.self))
            }
        } catch {
            return .null
        }
    }
}
