/// Persistent history's tables in a PostgreSQL schema: the SQLite store's (`SQLiteHistorySchema`)
/// with PostgreSQL's types, plus `Z_HISTORYPURGE`, the newest transaction number ever deleted.
///
/// Transaction numbers come from a sequence, which hands out numbers in the order saves start,
/// not the order they commit. Recording therefore takes one advisory lock per schema until
/// commit (`recordingLock`), so numbers commit in order across every machine and a reader that
/// saw number n has seen every number below it. Saves that record history queue for that lock;
/// saves without history do not.
enum PostgreSQLHistorySchema {
    static let createStatements = [
        "CREATE TABLE IF NOT EXISTS ATRANSACTIONSTRING (Z_PK BIGSERIAL PRIMARY KEY, Z_ENT BIGINT, Z_OPT BIGINT, ZNAME TEXT NOT NULL UNIQUE)",
        """
        CREATE TABLE IF NOT EXISTS ATRANSACTION (Z_PK BIGSERIAL PRIMARY KEY, Z_ENT BIGINT, Z_OPT BIGINT, ZAUTHOR BIGINT, \
        ZBUNDLEID BIGINT, ZCONTEXTNAME BIGINT, ZPROCESSID BIGINT, ZTIMESTAMP DOUBLE PRECISION, ZQUERYGEN BYTEA)
        """,
        "CREATE INDEX IF NOT EXISTS Z_TRANSACTION_TIMESTAMP ON ATRANSACTION (ZTIMESTAMP)",
        """
        CREATE TABLE IF NOT EXISTS ACHANGE (Z_PK BIGSERIAL PRIMARY KEY, Z_ENT BIGINT, Z_OPT BIGINT, ZCHANGETYPE BIGINT, \
        ZENTITY BIGINT, ZENTITYPK BIGINT, ZTRANSACTIONID BIGINT, ZCOLUMNS TEXT, ZTOMBSTONE0 BYTEA)
        """,
        "CREATE INDEX IF NOT EXISTS Z_CHANGE_TRANSACTION ON ACHANGE (ZTRANSACTIONID)",
        "CREATE TABLE IF NOT EXISTS Z_HISTORYPURGE (Z_LAST BIGINT NOT NULL)",
    ]

    static func recordingLock(_ schema: String) -> (sql: String, bindings: [SQLValue]) {
        ("SELECT pg_advisory_xact_lock(hashtext($1))", [.text("coredata.history." + schema)])
    }

    /// The newest committed transaction number, counting deleted ones.
    static let lastNumberQuery = """
        SELECT GREATEST(COALESCE((SELECT MAX(Z_PK) FROM ATRANSACTION), 0), COALESCE((SELECT MAX(Z_LAST) FROM Z_HISTORYPURGE), 0))
        """
}
