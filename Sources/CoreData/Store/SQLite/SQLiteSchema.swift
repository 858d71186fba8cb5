/// Apple's on-disk naming: one table per root entity (`ZPERSON`), a column per attribute
/// (`ZNAME`), a foreign-key column per to-one relationship (`ZDOG`), an order column for an
/// ordered one-to-many (`Z_FOK_DOG`), and a join table for many-to-many relationships.
///
/// Both the store and the SQL compiler name things only through this type, so the two never
/// disagree about where a value lives.
enum SQLiteSchema {
    static let primaryKey = "Z_PK"
    static let entityColumn = "Z_ENT"

    /// The table holding rows of `entity` and of every entity that inherits from it.
    static func table(for entity: NSEntityDescription) -> String {
        "Z" + (entity.rootEntity.name ?? "").uppercased()
    }

    /// The column of an attribute or to-one relationship.
    static func column(for property: NSPropertyDescription) -> String {
        "Z" + property.name.uppercased()
    }

    /// The column of one element of a composite attribute, e.g. `ZADDRESS_CITY` for
    /// `address.city` (nested composites add one part per level).
    static func column(for composite: NSCompositeAttributeDescription, element path: [String]) -> String {
        ([column(for: composite)] + path.map { $0.uppercased() }).joined(separator: "_")
    }

    /// Where a to-many relationship's members are found.
    static func storage(of relationship: NSRelationshipDescription) -> ToManyStorage {
        precondition(relationship.isToMany, "only to-many relationships have separate storage")
        if let inverse = relationship.inverseRelationship, !inverse.isToMany {
            return .inverseForeignKey(
                table: table(for: inverse.entity),
                column: column(for: inverse),
                orderColumn: relationship.isOrdered ? "Z_FOK_" + inverse.name.uppercased() : nil
            )
        }
        // Many-to-many (or to-many without inverse): a join table named after whichever side
        // sorts first, so both sides agree on one table.
        let sourceEntityNumber = relationship.entity.entityNumber
        let destinationEntityNumber = relationship.destinationEntity?.entityNumber ?? 0
        let inverseName = relationship.inverseRelationship?.name ?? "INVERSE"
        let ownKey = "\(relationship.entity.name ?? "").\(relationship.name)"
        let inverseKey = "\(relationship.destinationEntity?.name ?? "").\(inverseName)"
        let ownSideFirst = ownKey <= inverseKey
        let tableName = ownSideFirst
            ? "Z_\(sourceEntityNumber)\(relationship.name.uppercased())"
            : "Z_\(destinationEntityNumber)\(inverseName.uppercased())"
        return .joinTable(
            table: tableName,
            sourceColumn: "Z_\(sourceEntityNumber)\(relationship.name.uppercased())",
            destinationColumn: "Z_\(destinationEntityNumber)\(inverseName.uppercased())",
            orderColumn: relationship.isOrdered ? "Z_FOK_\(relationship.name.uppercased())" : nil
        )
    }

    /// The members of a to-many relationship of the row whose key is bound first, as
    /// (Z_PK, Z_ENT), in order for ordered relationships.
    static func membersQuery(of relationship: NSRelationshipDescription, dialect: SQLDialect) -> String {
        let source = dialect.placeholder(1)
        switch storage(of: relationship) {
        case .inverseForeignKey(let table, let column, let order):
            let ordering = order.map { "ORDER BY \($0), Z_PK" } ?? "ORDER BY Z_PK"
            return "SELECT Z_PK, Z_ENT FROM \(table) WHERE \(column) = \(source) \(ordering)"
        case .joinTable(let table, let sourceColumn, let destinationColumn, let order):
            let ordering = order.map { "ORDER BY j.\($0), j.\(destinationColumn)" } ?? "ORDER BY j.\(destinationColumn)"
            let destination = Self.table(for: relationship.destinationEntity!)
            return "SELECT j.\(destinationColumn), d.Z_ENT FROM \(table) j JOIN \(destination) d ON d.Z_PK = j.\(destinationColumn) WHERE j.\(sourceColumn) = \(source) \(ordering)"
        }
    }

    /// Whether `relationship` is the side of a many-to-many whose changes are written to the
    /// join table (the side the table is named after, or the only side).
    /// Derived from `storage(of:)`, so the two always agree on the side.
    static func writesJoinTable(_ relationship: NSRelationshipDescription) -> Bool {
        guard relationship.inverseRelationship != nil,
              case .joinTable(let table, let sourceColumn, _, _) = storage(of: relationship) else { return true }
        return table == sourceColumn
    }

    /// The join tables of `model`'s many-to-many relationships, one per pair of sides.
    static func joinTables(in model: NSManagedObjectModel) -> [SQLiteJoinTable] {
        var seen = Set<String>()
        var tables: [SQLiteJoinTable] = []
        for entity in model.entities.sorted(by: { ($0.name ?? "") < ($1.name ?? "") }) {
            for case let relationship as NSRelationshipDescription in entity.properties
            where relationship.entity === entity && relationship.isToMany && !relationship.isTransient {
                guard case .joinTable(let table, let source, let destination, let order) = storage(of: relationship),
                      seen.insert(table).inserted else { continue }
                tables.append(SQLiteJoinTable(table: table, keyColumns: [source, destination].sorted(), orderColumn: order))
            }
        }
        return tables
    }

    /// `CREATE TABLE` and `CREATE INDEX` statements for the join tables of `model`.
    static func joinTableStatements(in model: NSManagedObjectModel) -> (tables: [String], indexes: [String]) {
        let joinTables = joinTables(in: model)
        return (joinTables.map(\.createStatement), joinTables.map(\.indexStatement))
    }

    /// The Z_ENT numbers a fetch for `entity` must match (itself and its subentities).
    static func entityNumbers(for entity: NSEntityDescription) -> [Int] {
        entity.selfAndDescendants.map(\.entityNumber)
    }

    /// The SQLite column type for an attribute.
    static func columnType(for attribute: NSAttributeDescription) -> String {
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType: "INTEGER"
        case .doubleAttributeType, .floatAttributeType: "FLOAT"
        // Text, not DECIMAL: SQLite would round a numeric-affinity decimal to a double.
        case .decimalAttributeType: "TEXT"
        case .dateAttributeType: "TIMESTAMP"
        case .stringAttributeType, .URIAttributeType: "VARCHAR"
        // A composite has no column of its own, only its elements' (see `SQLTableLayout`).
        case .binaryDataAttributeType, .UUIDAttributeType, .transformableAttributeType, .objectIDAttributeType, .undefinedAttributeType,
             .compositeAttributeType: "BLOB"
        }
    }
}

/// The two ways a to-many relationship is stored.
enum ToManyStorage: Equatable {
    /// One-to-many: each destination row holds the source's primary key.
    case inverseForeignKey(table: String, column: String, orderColumn: String?)
    /// Many-to-many: a table of (source pk, destination pk) pairs.
    case joinTable(table: String, sourceColumn: String, destinationColumn: String, orderColumn: String?)
}

/// A many-to-many relationship's table of (source pk, destination pk) pairs.
struct SQLiteJoinTable {
    let table: String
    /// The two key columns, in table order (sorted, so both sides agree).
    let keyColumns: [String]
    let orderColumn: String?

    var createStatement: String { createStatement(dialect: .sqlite) }

    func createStatement(dialect: SQLDialect) -> String {
        let integer = dialect.columnType("INTEGER")
        let orderColumns = [orderColumn].compactMap { $0 }.map { ", \($0) \(integer)" }.joined()
        return "CREATE TABLE \(table) (\(keyColumns[0]) \(integer), \(keyColumns[1]) \(integer)\(orderColumns), PRIMARY KEY (\(keyColumns[0]), \(keyColumns[1])))"
    }

    var indexStatement: String {
        "CREATE INDEX \(table)_\(keyColumns[1])_INDEX ON \(table) (\(keyColumns[1]))"
    }
}
