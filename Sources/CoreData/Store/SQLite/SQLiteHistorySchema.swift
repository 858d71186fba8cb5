/// Persistent history's tables, named as Apple's: `ATRANSACTION` (one row a save or batch
/// request), `ACHANGE` (one row a changed object) and `ATRANSACTIONSTRING` (author, bundle,
/// process and context names, each stored once and referenced by key).
///
/// The layout approximates Apple's rather than copying it byte for byte: the string columns of
/// a transaction hold `ATRANSACTIONSTRING` keys; `ZCOLUMNS` holds the updated property names
/// separated by commas where Apple keeps a bit mask; `ZTOMBSTONE0` holds all of a delete's
/// preserved values as one binary property list where Apple has a column per value.
/// `AUTOINCREMENT` keeps transaction numbers rising after history is deleted, so a token taken
/// before a purge never names a later transaction.
enum SQLiteHistorySchema {
    /// The `Z_ENT` values of the history rows, which Apple numbers apart from model entities.
    static let changeEntity: Int64 = 16001
    static let transactionEntity: Int64 = 16002
    static let stringEntity: Int64 = 16003

    static let createStatements = [
        "CREATE TABLE IF NOT EXISTS ATRANSACTIONSTRING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR NOT NULL UNIQUE)",
        """
        CREATE TABLE IF NOT EXISTS ATRANSACTION (Z_PK INTEGER PRIMARY KEY AUTOINCREMENT, Z_ENT INTEGER, Z_OPT INTEGER, \
        ZAUTHOR INTEGER, ZBUNDLEID INTEGER, ZCONTEXTNAME INTEGER, ZPROCESSID INTEGER, ZTIMESTAMP FLOAT, ZQUERYGEN BLOB)
        """,
        "CREATE INDEX IF NOT EXISTS Z_TRANSACTION_TIMESTAMP ON ATRANSACTION (ZTIMESTAMP)",
        """
        CREATE TABLE IF NOT EXISTS ACHANGE (Z_PK INTEGER PRIMARY KEY AUTOINCREMENT, Z_ENT INTEGER, Z_OPT INTEGER, \
        ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB, ZTOMBSTONE0 BLOB)
        """,
        "CREATE INDEX IF NOT EXISTS Z_CHANGE_TRANSACTION ON ACHANGE (ZTRANSACTIONID)",
    ]

    /// The transactions a fetch bounded by `boundary` returns, as a condition on `ATRANSACTION`
    /// aliased `t`, with its bindings; `deleting` turns "after" into "before".
    static func condition(_ boundary: HistoryBoundary, deleting: Bool) -> (sql: String, bindings: [SQLValue]) {
        let comparison = deleting ? "<" : ">"
        switch boundary {
        case .everything: return ("1", [])
        case .transactionNumber(let number): return ("t.Z_PK \(comparison) ?", [.integer(number)])
        case .date(let date): return ("t.ZTIMESTAMP \(comparison) ?", [.real(date.timeIntervalSinceReferenceDate)])
        }
    }
}
