/// The statements that write one to-many relationship's separate storage, made once per
/// relationship (`SQLTableCatalog.toManyStatements(of:)`). Members travel as one JSON array of
/// keys in order, so a change costs the same statements however many members it has.
struct ToManyStatements {
    /// For an ordered one-to-many: sets each member row's order column to its position (from
    /// 1), the members bound at the one placeholder.
    let updateOrder: String?
    /// For a many-to-many: deletes the join rows of the sources whose keys are bound as one
    /// array.
    let deleteJoinRows: String?
    /// For a many-to-many written from this side (`SQLiteSchema.writesJoinTable`): inserts a
    /// join row for the source key bound first and each member of the array bound second.
    let insertJoinRows: String?

    init(relationship: NSRelationshipDescription, dialect: SQLDialect) {
        let first = dialect.placeholder(1)
        switch SQLiteSchema.storage(of: relationship) {
        case .inverseForeignKey(let table, _, let order):
            updateOrder = order.map { order in
                "UPDATE \(table) SET \(order) = m.position FROM \(dialect.orderedKeys(first)) AS m WHERE \(table).Z_PK = m.member"
            }
            deleteJoinRows = nil
            insertJoinRows = nil
        case .joinTable(let table, let sourceColumn, let destinationColumn, let order):
            updateOrder = nil
            deleteJoinRows = "DELETE FROM \(table) WHERE \(sourceColumn) IN \(dialect.keyList(first))"
            guard SQLiteSchema.writesJoinTable(relationship) else {
                insertJoinRows = nil
                return
            }
            let source = "CAST(\(first) AS \(dialect.columnType("INTEGER")))"
            let members = dialect.orderedKeys(dialect.placeholder(2))
            insertJoinRows = order.map { order in
                "INSERT INTO \(table) (\(sourceColumn), \(destinationColumn), \(order)) SELECT \(source), m.member, m.position FROM \(members) AS m"
            } ?? "INSERT INTO \(table) (\(sourceColumn), \(destinationColumn)) SELECT \(source), m.member FROM \(members) AS m"
        }
    }
}
