/// The UPDATE of a batch update: one statement whose SET computes expression values from the
/// row being updated (`ZTIPS = t0.ZTIPS + 1`) and whose WHERE selects the matching rows.
///
/// One compiler numbers every bound value, constants of SET included, so the placeholders of
/// SET and WHERE cannot collide.
struct BatchUpdateStatement {
    let sql: String
    let bindings: [SQLValue]

    init(fetch: StoreFetch, table: String, assignments: [BatchAssignment], dialect: SQLDialect) throws {
        let compiler = SQLCompiler(entity: fetch.entity, includesSubentities: fetch.includesSubentities, dialect: dialect)
        var setters: [String] = []
        for assignment in assignments {
            let column = SQLiteSchema.column(for: assignment.attribute)
            guard let expression = assignment.expression else {
                setters.append("\(column) = \(compiler.bind(try SQLValueCoding.encode(assignment.value, as: assignment.attribute)))")
                continue
            }
            let operand = try compiler.scalar(expression, in: compiler.rootScope)
            guard compiler.rootScope.joins.isEmpty else {
                throw CoreDataError.misuse("Batch update of '\(assignment.attribute.name)': values may read the row's own attributes only, not key paths through relationships")
            }
            setters.append("\(column) = \(Self.converted(operand.sql, to: assignment.attribute.attributeType, dialect))")
        }
        setters.append("Z_OPT = Z_OPT + 1")
        let condition = try compiler.whereClause(for: fetch.predicate?.parsedTree())
        if compiler.rootScope.joins.isEmpty {
            // A condition on the row's own columns: one pass over the table.
            sql = "UPDATE \(table) AS t0 SET \(setters.joined(separator: ", ")) WHERE \(condition)"
        } else {
            // Joins need a FROM clause: select the keys in a subquery, whose own t0 shadows the
            // updated row's alias, so WHERE reads the right rows.
            sql = "UPDATE \(table) AS t0 SET \(setters.joined(separator: ", ")) WHERE Z_PK IN (SELECT t0.Z_PK FROM \(compiler.fromClause) WHERE \(condition))"
        }
        bindings = compiler.bindings
    }

    /// Stores a computed number as the column's type says, as the in-memory store converts it
    /// (integers truncate toward zero; booleans are 0 or 1).
    private static func converted(_ sql: String, to type: NSAttributeType, _ dialect: SQLDialect) -> String {
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: dialect.integer(sql)
        case .booleanAttributeType: "CAST((\(sql)) <> 0 AS INTEGER)"
        case .doubleAttributeType, .floatAttributeType: dialect.real(sql)
        default: sql
        }
    }
}
