/// A row of a PostgreSQL result, as the session hands it to the store's read path.
///
/// The driver's row type lives in `CoreDataPostgreSQL`, which this module cannot name, so the
/// connection hands rows over as `any SQLRow`; a session's row must be one concrete type
/// (`SQLSession.Row`), which this is. Each column read is one dynamic call into the driver's row,
/// which reads the cell's bytes; nothing is decoded ahead.
struct PostgreSQLRow: SQLRow {
    let received: any SQLRow

    var columnCount: Int32 { received.columnCount }

    func value(at column: Int32) -> SQLValue { received.value(at: column) }

    func int64(at column: Int32) -> Int64 { received.int64(at: column) }

    func double(at column: Int32) -> Double { received.double(at: column) }

    func text(at column: Int32) -> String { received.text(at: column) }

    func storageClass(at column: Int32) -> SQLStorageClass { received.storageClass(at: column) }
}
