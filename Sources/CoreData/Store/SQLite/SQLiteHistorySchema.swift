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
    static func condition(_ boundary: HistoryBoundary, deleting: Bool, dialect: SQLDialect) -> (sql: String, bindings: [SQLValue]) {
        let comparison = deleting ? "<" : ">"
        switch boundary {
        case .everything: return (dialect.literal(true), [])
        case .transactionNumber(let number): return ("t.Z_PK \(comparison) \(dialect.placeholder(1))", [.integer(number)])
        case .date(let date): return ("t.ZTIMESTAMP \(comparison) \(dialect.placeholder(1))", [.real(date.timeIntervalSinceReferenceDate)])
        }
    }

    /// A history fetch's transactions, in the columns `HistoryReader.addTransaction` reads.
    static func transactionsQuery(where condition: String) -> String {
        """
        SELECT t.Z_PK, t.ZTIMESTAMP, a.ZNAME, b.ZNAME, c.ZNAME, p.ZNAME FROM ATRANSACTION t \
        LEFT JOIN ATRANSACTIONSTRING a ON a.Z_PK = t.ZAUTHOR LEFT JOIN ATRANSACTIONSTRING b ON b.Z_PK = t.ZBUNDLEID \
        LEFT JOIN ATRANSACTIONSTRING c ON c.Z_PK = t.ZCONTEXTNAME LEFT JOIN ATRANSACTIONSTRING p ON p.Z_PK = t.ZPROCESSID \
        WHERE \(condition) ORDER BY t.Z_PK
        """
    }

    /// The changes of those transactions, in the columns `HistoryReader.addChange` reads.
    static func changesQuery(where condition: String) -> String {
        """
        SELECT Z_PK, ZTRANSACTIONID, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS, ZTOMBSTONE0 FROM ACHANGE \
        WHERE ZTRANSACTIONID IN (SELECT t.Z_PK FROM ATRANSACTION t WHERE \(condition)) ORDER BY Z_PK
        """
    }
}
