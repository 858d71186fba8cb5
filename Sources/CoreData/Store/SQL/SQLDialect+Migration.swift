/// The words a migration needs besides a query's: questions to the database's own catalog,
/// and the few statements that change or fill a schema differently. Names are compared
/// upper-cased, as we write them: PostgreSQL folds unquoted names to lower case, and reads
/// its catalog within the store's schema (the connection's `search_path`).
extension SQLDialect {
    /// A row when the table named by the one bound value exists.
    var tableExistsQuery: String {
        switch self {
        case .sqlite: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
        case .postgreSQL: "SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = lower($1)"
        }
    }

    /// The columns of the table named by the one bound value, in table order.
    var columnNamesQuery: String {
        switch self {
        case .sqlite: "SELECT name FROM pragma_table_info(?)"
        case .postgreSQL:
            "SELECT upper(column_name) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = lower($1) ORDER BY ordinal_position"
        }
    }

    /// The indexes we created on the table named by the one bound value (not the primary
    /// key's, which goes with the table).
    var indexNamesQuery: String {
        switch self {
        case .sqlite: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL"
        case .postgreSQL:
            """
            SELECT upper(i.relname) FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid \
            JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = current_schema() AND t.relname = lower($1) AND NOT x.indisprimary
            """
        }
    }

    /// `sql` with each `?` made the next numbered placeholder: a migration's value
    /// expressions are put together before the statement that numbers their bound values.
    /// SQLite numbers a bare `?` itself. The statements hold no string literal, so every `?`
    /// is a placeholder.
    func numberingPlaceholders(_ sql: String) -> String {
        guard self == .postgreSQL else { return sql }
        var numbered = ""
        var number = 0
        for character in sql {
            if character == "?" {
                number += 1
                numbered += placeholder(number)
            } else {
                numbered.append(character)
            }
        }
        return numbered
    }

    /// `value` as a SQL literal, for a column default.
    func literal(_ value: SQLValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let integer): String(integer)
        case .real(let real): real.isFinite ? "\(real)" : "NULL"
        case .text(let text): "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let bytes):
            switch self {
            case .sqlite: "X'" + bytes.map { String(format: "%02X", $0) }.joined() + "'"
            case .postgreSQL: "'\\x" + bytes.map { String(format: "%02X", $0) }.joined() + "'::BYTEA"
            }
        }
    }

    /// `INSERT … SELECT` that skips the rows whose key the table already has.
    func insertSkippingDuplicates(into table: String, columns: [String], select: String) -> String {
        let columns = columns.joined(separator: ", ")
        return switch self {
        case .sqlite: "INSERT OR IGNORE INTO \(table) (\(columns)) \(select)"
        case .postgreSQL: "INSERT INTO \(table) (\(columns)) \(select) ON CONFLICT DO NOTHING"
        }
    }

    /// The order of an unordered join table's links: SQLite's insertion order (`rowid`);
    /// PostgreSQL's rows have no number, so the member's key, the order the store reads them in.
    func linkOrder(member column: String) -> String {
        switch self {
        case .sqlite: "rowid"
        case .postgreSQL: column
        }
    }

    /// A stored number (or a decimal's text) as an integer attribute keeps it, truncated toward
    /// zero; exact on PostgreSQL too, through NUMERIC, where a cast alone would round.
    func convertedToInteger(_ sql: String) -> String {
        switch self {
        case .sqlite: "CAST(\(sql) AS INTEGER)"
        case .postgreSQL: "CAST(trunc(CAST(\(sql) AS NUMERIC)) AS BIGINT)"
        }
    }
}
