/// The database a compiled statement is for. One compiler serves both stores; only the words
/// below differ, so a predicate means the same on SQLite and on PostgreSQL.
///
/// SQLite has no boolean type (a condition is 0 or 1) and runs our Swift functions inside
/// the query; PostgreSQL has booleans, numbered `$n` parameters and the `NSPRED_*` functions
/// the PostgreSQL store creates in its schema (`PostgreSQLFunctions`).
package enum SQLDialect: Sendable {
    case sqlite
    case postgreSQL

    /// The placeholder of the `number`th bound value (1-based).
    func placeholder(_ number: Int) -> String {
        switch self {
        case .sqlite: "?\(number)"
        case .postgreSQL: "$\(number)"
        }
    }

    /// A condition that always or never holds.
    func literal(_ condition: Bool) -> String {
        switch self {
        case .sqlite: condition ? "1" : "0"
        case .postgreSQL: condition ? "TRUE" : "FALSE"
        }
    }

    /// Equality in which NULL equals NULL and nothing else.
    func same(_ lhs: String, _ rhs: String) -> String {
        switch self {
        case .sqlite: "\(lhs) IS \(rhs)"
        case .postgreSQL: "\(lhs) IS NOT DISTINCT FROM \(rhs)"
        }
    }

    /// A number as a double (decimals are stored as exact text; division is real division).
    func real(_ sql: String) -> String {
        switch self {
        case .sqlite: "CAST(\(sql) AS REAL)"
        case .postgreSQL: "CAST(\(sql) AS DOUBLE PRECISION)"
        }
    }

    /// A number truncated toward zero, as the in-memory store converts one for an integer
    /// attribute (PostgreSQL's cast would round).
    func integer(_ sql: String) -> String {
        switch self {
        case .sqlite: "CAST(\(sql) AS INTEGER)"
        case .postgreSQL: "CAST(trunc(\(sql)) AS BIGINT)"
        }
    }

    /// Real division; NULL for a zero divisor, as in memory (PostgreSQL would raise).
    func divide(_ dividend: String, _ divisor: String) -> String {
        switch self {
        case .sqlite: "(\(real(dividend)) / \(divisor))"
        case .postgreSQL: "(\(real(dividend)) / NULLIF(\(divisor), 0))"
        }
    }

    /// A condition made NULL-free: NULL counts as false.
    func orFalse(_ condition: String) -> String {
        "COALESCE(\(condition), \(literal(false)))"
    }

    /// `lhs op rhs` for an ordering comparison; strings compare by UTF-8 bytes, as
    /// `StringMatching.compareBytes` does (PostgreSQL's default collation is the database's).
    func order(_ lhs: String, _ op: String, _ rhs: String, strings: Bool) -> String {
        guard strings, self == .postgreSQL else { return "\(lhs) \(op) \(rhs)" }
        return "\(lhs) COLLATE \"C\" \(op) \(rhs)"
    }

    /// One ORDER BY term, with NULL before every value in ascending order (as in memory).
    /// `selector` is given for strings only; on PostgreSQL it is `compare:` (byte order), as
    /// other selectors are ordered in Swift (`SQLCompiler.SortTerm.ordersInSQL`).
    func orderTerm(_ sql: String, selector: SortSelector?, ascending: Bool) -> String {
        let direction = ascending ? "ASC" : "DESC"
        switch self {
        case .sqlite:
            let collation = selector?.collationName.map { " COLLATE \($0)" } ?? ""
            return "\(sql)\(collation) \(direction)"
        case .postgreSQL:
            let collation = selector == nil ? "" : " COLLATE \"C\""
            return "\(sql)\(collation) \(direction) \(ascending ? "NULLS FIRST" : "NULLS LAST")"
        }
    }

    /// A string column as SELECT DISTINCT selects it: PostgreSQL wants each ORDER BY term of such a
    /// statement in its select list, and `orderTerm` orders strings in byte order ("C"). The
    /// values, and which of them are equal, stay the same.
    func distinctString(_ sql: String) -> String {
        switch self {
        case .sqlite: sql
        case .postgreSQL: "\(sql) COLLATE \"C\""
        }
    }

    /// The value that means "no limit" in `LIMIT ?`.
    var noLimit: SQLValue {
        switch self {
        case .sqlite: .integer(-1)
        case .postgreSQL: .null
        }
    }

    /// The primary keys in the JSON array (`SQLValue.keyArray`) bound at `placeholder`, as a
    /// subquery for `IN`: one statement shape for any number of keys.
    func keyList(_ placeholder: String) -> String {
        switch self {
        case .sqlite: "(SELECT value FROM json_each(\(placeholder)))"
        case .postgreSQL: "(SELECT CAST(value AS BIGINT) FROM json_array_elements_text(CAST(\(placeholder) AS JSON)))"
        }
    }

    /// The keys of the JSON array bound at `placeholder`, in order, as a table of `member`
    /// (the key) and `position` (from 1), for statements that write a to-many relationship's
    /// members at once.
    func orderedKeys(_ placeholder: String) -> String {
        switch self {
        case .sqlite: "(SELECT CAST(value AS INTEGER) AS member, key + 1 AS position FROM json_each(\(placeholder)))"
        case .postgreSQL:
            "(SELECT CAST(e.value AS BIGINT) AS member, e.position FROM json_array_elements_text(CAST(\(placeholder) AS JSON)) WITH ORDINALITY AS e(value, position))"
        }
    }

    /// Whether a save writes a table's inserted or updated rows with one statement, the rows
    /// bound as one record set (`SQLRecordSet`), rather than a statement per row: over a
    /// network a round trip per row costs far more than the server's work; SQLite steps a
    /// cached statement per row in process, which costs less than building the set.
    var writesRecordSets: Bool { self == .postgreSQL }

    /// The rows of the record set bound at the first placeholder, as rows of `table`'s type.
    func recordSet(of table: String) -> String {
        "json_populate_recordset(NULL::\(table), CAST(\(placeholder(1)) AS JSON))"
    }

    /// The statement of `SQLTableCatalog.versionQuery(tables:)`. PostgreSQL allows no
    /// `FOR UPDATE` beside `UNION`, so each table's locking read is a CTE of its own.
    func versionQuery(tables: [String]) -> String {
        let selects = tables.enumerated().map { position, table in
            (position, "SELECT Z_PK, Z_OPT FROM \(table) WHERE Z_PK IN \(keyList(placeholder(position + 1)))")
        }
        switch self {
        case .sqlite:
            return selects.map { "SELECT \($0), Z_PK, Z_OPT FROM (\($1))" }.joined(separator: " UNION ALL ")
        case .postgreSQL:
            let locks = selects.map { "v\($0) AS (\($1) ORDER BY Z_PK FOR UPDATE)" }.joined(separator: ", ")
            return "WITH \(locks) " + selects.map { "SELECT \($0.0), Z_PK, Z_OPT FROM v\($0.0)" }.joined(separator: " UNION ALL ")
        }
    }

    /// The column type for one of `SQLiteSchema.columnType(for:)`'s (Apple's SQLite types);
    /// on PostgreSQL each holds the same `SQLValue` case it holds on SQLite.
    func columnType(_ sqliteType: String) -> String {
        guard self == .postgreSQL else { return sqliteType }
        return switch sqliteType {
        case "INTEGER": "BIGINT"
        case "FLOAT", "TIMESTAMP": "DOUBLE PRECISION"
        case "BLOB": "BYTEA"
        default: "TEXT"
        }
    }
}
