/// A table a migration changes with `ALTER TABLE` instead of rebuilding it: when it holds the
/// same entities under the same numbers and each new column is a stored column renamed, a new
/// empty column, or a new column with a constant default. SQLite and PostgreSQL (since 11,
/// for a constant default) make such changes without rewriting the rows, so adding or
/// renaming an attribute costs the same on a million rows as on ten (BENCHMARKS.md,
/// "migration").
struct TableAlteration {
    let table: String
    /// Rows of entities the new model no longer has.
    var deletedEntityNumbers: [Int] = []
    var droppedColumns: [String] = []
    var renamedColumns: [(from: String, to: String)] = []
    /// Column definitions, with a `DEFAULT` where new rows start at one.
    var addedColumns: [String] = []

    /// Makes the change; indexes not named in `keepingIndexes` go first (SQLite refuses to
    /// drop an indexed column), and the missing ones are created with the others afterwards.
    func apply(keepingIndexes: Set<String>, _ session: some SQLSession) throws {
        if !deletedEntityNumbers.isEmpty {
            try session.write("DELETE FROM \(table) WHERE Z_ENT IN (\(deletedEntityNumbers.map(String.init).joined(separator: ", ")))", [])
        }
        var indexes: [String] = []
        try session.query(session.dialect.indexNamesQuery, [.text(table)]) { row in
            if case .text(let name) = row.value(at: 0) { indexes.append(name) }
        }
        for index in indexes where !keepingIndexes.contains(index) { try session.write("DROP INDEX \(index)", []) }
        for column in droppedColumns { try session.write("ALTER TABLE \(table) DROP COLUMN \(column)", []) }
        for (from, to) in renamedColumns { try session.write("ALTER TABLE \(table) RENAME COLUMN \(from) TO \(to)", []) }
        for definition in addedColumns { try session.write("ALTER TABLE \(table) ADD COLUMN \(definition)", []) }
    }

    /// The name in a `CREATE INDEX name ON …` statement.
    static func indexName(in statement: String) -> String {
        statement.split(separator: " ").dropFirst(2).first.map(String.init) ?? ""
    }
}

extension SQLMigration {
    /// How `layout`'s table can be changed in place, or nil when it must be rebuilt: rows move
    /// between tables or change entity number, or a column's value is computed.
    func alteration(for layout: SQLTableLayout, _ session: some SQLSession) throws -> TableAlteration? {
        let group = continued(in: layout)
        guard let sourceRoot = group.first?.source.rootEntity, SQLiteSchema.table(for: sourceRoot) == layout.table,
              group.allSatisfy({ $0.source.rootEntity === sourceRoot && $0.source.entityNumber == $0.destination.entityNumber }),
              try tableExists(layout.table, session) else { return nil }
        var alteration = TableAlteration(table: layout.table)
        for entity in sourceRoot.selfAndDescendants where !group.contains(where: { $0.source === entity }) {
            // Its rows would have to move to another table.
            if continuations[entity.name ?? ""] != nil { return nil }
            alteration.deletedEntityNumbers.append(entity.entityNumber)
        }
        var existing: [String] = []
        try session.query(session.dialect.columnNamesQuery, [.text(layout.table)]) { row in
            if case .text(let name) = row.value(at: 0), !["Z_PK", "Z_ENT", "Z_OPT"].contains(name) { existing.append(name) }
        }
        var kept = Set<String>()
        for column in layout.columns {
            let value = try columnValue(column, group: group, offsets: [:], dialect: session.dialect)
            let type = session.dialect.columnType(column.storedAttribute.map(SQLiteSchema.columnType(for:)) ?? "INTEGER")
            let copiedName = value.sql.hasPrefix("t.") ? String(value.sql.dropFirst(2)) : nil
            if let copiedName, value.bindings.isEmpty, existing.contains(copiedName), kept.insert(copiedName).inserted {
                if copiedName != column.name { alteration.renamedColumns.append((copiedName, column.name)) }
            } else if value == .null {
                alteration.addedColumns.append("\(column.name) \(type)")
            } else if value.sql == ColumnValue.placeholder, value.bindings.count == 1 {
                alteration.addedColumns.append("\(column.name) \(type) DEFAULT \(session.dialect.literal(value.bindings[0]))")
            } else {
                return nil
            }
        }
        for order in layout.orderColumns {
            guard existing.contains(order) else { return nil }
            kept.insert(order)
        }
        alteration.droppedColumns = existing.filter { !kept.contains($0) }
        // A rename onto a name the table has, even one about to go, is left to a rebuild.
        guard alteration.renamedColumns.allSatisfy({ !existing.contains($0.to) }) else { return nil }
        return alteration
    }
}
