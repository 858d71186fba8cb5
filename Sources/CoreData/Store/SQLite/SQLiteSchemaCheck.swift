/// Compares the tables of a store file with the layout a model gives them, for a store whose
/// recorded version hashes are not the model's and whose own model cannot be found (a file
/// Apple's framework wrote with a model using hash inputs not yet checked against its files,
/// see the README). If every
/// table, column and entity number the model needs is in the file with a compatible type,
/// the rows can be read and written as they are, with no migration.
///
/// Extra tables and columns are allowed: Apple's files carry some we don't use (for example
/// the destination entity number beside a to-one key, or history tables), and our statements
/// name their columns, so they never touch them.
enum SQLiteSchemaCheck {
    /// What the file behind `connection` lacks for `model`'s `layouts`, one line per problem;
    /// empty when the model can use the file as it is.
    static func differences(in connection: SQLiteConnection, layouts: [SQLTableLayout], model: NSManagedObjectModel) throws -> [String] {
        var problems: [String] = []
        for layout in layouts.sorted(by: { $0.table < $1.table }) {
            let decimals = Set(layout.columns.filter { $0.storedAttribute?.attributeType == .decimalAttributeType }.map(\.name))
            problems += try differences(of: layout.table, expected: layout.columnTypes, decimals: decimals, connection)
        }
        for joinTable in SQLiteSchema.joinTables(in: model) {
            let expected = (joinTable.keyColumns + [joinTable.orderColumn].compactMap { $0 }).map { ($0, "INTEGER") }
            problems += try differences(of: joinTable.table, expected: expected, decimals: [], connection)
        }
        var namesByNumber: [Int64: String] = [:]
        try connection.query("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY") { row in namesByNumber[row.int64(at: 0)] = row.text(at: 1) }
        for entity in model.entities where namesByNumber[Int64(entity.entityNumber)] != entity.name {
            problems.append("entity number \(entity.entityNumber) is \(namesByNumber[Int64(entity.entityNumber)] ?? "unused") in Z_PRIMARYKEY, not \(entity.name ?? "")")
        }
        return problems
    }

    private static func differences(of table: String, expected: [(name: String, type: String)], decimals: Set<String>,
                                    _ connection: SQLiteConnection) throws -> [String] {
        var declared: [String: String] = [:]
        try connection.query("SELECT name, type FROM pragma_table_info(?)", [.text(table)]) { row in
            declared[row.text(at: 0).uppercased()] = row.text(at: 1)
        }
        guard !declared.isEmpty else { return ["table \(table) is missing"] }
        return expected.compactMap { column in
            guard let type = declared[column.name] else { return "column \(table).\(column.name) is missing" }
            let found = Affinity(declaredType: type), wanted = Affinity(declaredType: column.type)
            // Apple declares decimals DECIMAL (numeric affinity); we store them as text, and
            // read either back as text, which SQLite gives exactly for a stored number.
            if found == wanted || (decimals.contains(column.name) && found == .numeric) { return nil }
            return "column \(table).\(column.name) is \(type), not \(column.type)"
        }
    }

    /// SQLite's type affinity of a declared column type (section 3.1 of "Datatypes In
    /// SQLite"): what decides how a value is stored, so what two declarations must share.
    private enum Affinity {
        case integer, text, blob, real, numeric

        init(declaredType: String) {
            let type = declaredType.uppercased()
            if type.contains("INT") { self = .integer }
            else if ["CHAR", "CLOB", "TEXT"].contains(where: type.contains) { self = .text }
            else if type.isEmpty || type.contains("BLOB") { self = .blob }
            else if ["REAL", "FLOA", "DOUB"].contains(where: type.contains) { self = .real }
            else { self = .numeric }
        }
    }
}
