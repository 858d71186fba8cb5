/// One column of an entity table: an attribute's, a to-one relationship's foreign key, or one
/// element of a composite attribute.
struct SQLColumn {
    let name: String
    let property: NSPropertyDescription
    /// For a composite attribute's column: the element names leading to the element it holds.
    let elementPath: [String]
    /// The attribute whose values the column holds (the element's, for a composite).
    let storedAttribute: NSAttributeDescription?
}

/// The columns of one root entity's table, and how each maps to a property of each entity that
/// lives in it. Computed once per store load; a class, since every row a save writes looks its
/// table's layout up and a struct of a dozen references copied out of the store's dictionary
/// cost a retain and a release of each, for every row (BENCHMARKS.md, figures moved out of the code).
final class SQLTableLayout {
    let table: String
    /// Attribute and to-one columns in table order, with the property they store.
    let columns: [SQLColumn]
    /// Order columns of ordered one-to-many relationships pointing at rows of this table.
    let orderColumns: [String]
    /// Writes a whole row: Z_PK, Z_ENT, Z_OPT, then `columns`. This and the statements below
    /// are built once per table, as a save runs them for every row.
    let insertStatement: String
    /// Rewrites a row's Z_OPT and `columns`, then the Z_PK to match.
    let updateStatement: String
    /// Deletes the rows whose Z_PK is in the JSON array bound to its one placeholder.
    let deleteKeysStatement: String
    /// The names of the columns `insertStatement` writes, in its order: the keys of a record
    /// set (`SQLRecordSet`).
    let recordColumns: [String]
    /// Where the dialect writes record sets (`SQLDialect.writesRecordSets`): inserts every row
    /// of the record set bound to its one placeholder.
    let insertRecordsStatement: String?
    /// Where the dialect writes record sets: rewrites Z_OPT and `columns` of every row of the
    /// record set bound to its one placeholder, matched by Z_PK.
    let updateRecordsStatement: String?
    /// The select list every row read uses: `t0.Z_PK, t0.Z_ENT, t0.Z_OPT, t0.<columns>...`, then
    /// for each to-one column whose destination has subentities the destination row's Z_ENT,
    /// so that a row names its related object's concrete entity without a look-up per row.
    let selectList: String
    /// For each column of `columns` that is followed by its destination's Z_ENT in
    /// `selectList`, the result column holding that Z_ENT.
    let destinationEntityColumns: [Int: Int32]
    /// Reads the rows whose Z_PK is in the JSON array bound to its one placeholder.
    let rowsByKeysQuery: String
    /// `CREATE INDEX` for the fetch indexes of the entities stored in the table.
    let fetchIndexStatements: [String]

    let dialect: SQLDialect
    /// The root entity's property layout and each column's ordinal in it, so that writing a row
    /// of the root entity (the common case) finds its values without hashing property names.
    private let rootIndex: PropertyIndex
    private let rootOrdinals: [Int?]

    init(root: NSEntityDescription, dialect: SQLDialect = .sqlite) {
        self.dialect = dialect
        table = SQLiteSchema.table(for: root)
        var seen = Set<String>()
        var columns: [SQLColumn] = []
        var orderColumns: [String] = []
        for entity in root.selfAndDescendants {
            for property in entity.properties where !property.isTransient {
                for column in Self.columns(of: property) where seen.insert(column.name).inserted {
                    columns.append(column)
                }
            }
        }
        // Order columns live on the destination table of ordered one-to-many relationships.
        for entity in root.managedObjectModel.entities {
            for case let relationship as NSRelationshipDescription in entity.properties
            where relationship.entity === entity && relationship.isToMany && relationship.destinationEntity?.rootEntity === root {
                if case .inverseForeignKey(_, _, let order?) = SQLiteSchema.storage(of: relationship), !orderColumns.contains(order) {
                    orderColumns.append(order)
                }
            }
        }
        self.columns = columns
        self.orderColumns = orderColumns
        let rootIndex = root.propertyIndex
        self.rootIndex = rootIndex
        rootOrdinals = columns.map { rootIndex.ordinals[$0.property.name] }
        let names = ["Z_PK", "Z_ENT", "Z_OPT"] + columns.map(\.name)
        let placeholders = (1...names.count).map(dialect.placeholder).joined(separator: ", ")
        insertStatement = "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(placeholders))"
        let assignments = names.dropFirst(2).enumerated().map { "\($1) = \(dialect.placeholder($0 + 1))" }.joined(separator: ", ")
        updateStatement = "UPDATE \(table) SET \(assignments) WHERE Z_PK = \(dialect.placeholder(names.count - 1))"
        deleteKeysStatement = "DELETE FROM \(table) WHERE Z_PK IN \(dialect.keyList(dialect.placeholder(1)))"
        recordColumns = names
        if dialect.writesRecordSets {
            let list = names.joined(separator: ", ")
            insertRecordsStatement = "INSERT INTO \(table) (\(list)) SELECT \(list) FROM \(dialect.recordSet(of: table))"
            let sets = names.dropFirst(2).map { "\($0) = r.\($0)" }.joined(separator: ", ")
            updateRecordsStatement = "UPDATE \(table) SET \(sets) FROM \(dialect.recordSet(of: table)) AS r WHERE \(table).Z_PK = r.Z_PK"
        } else {
            insertRecordsStatement = nil
            updateRecordsStatement = nil
        }
        var destinationEntityColumns: [Int: Int32] = [:]
        var destinationEntities: [String] = []
        for (offset, column) in columns.enumerated() {
            guard let relationship = column.property as? NSRelationshipDescription,
                  let destination = relationship.destinationEntity, !destination.subentities.isEmpty else { continue }
            destinationEntityColumns[offset] = Int32(3 + columns.count + destinationEntities.count)
            destinationEntities.append("(SELECT d.Z_ENT FROM \(SQLiteSchema.table(for: destination)) d WHERE d.Z_PK = t0.\(column.name))")
        }
        self.destinationEntityColumns = destinationEntityColumns
        selectList = (["t0.Z_PK", "t0.Z_ENT", "t0.Z_OPT"] + columns.map { "t0.\($0.name)" } + destinationEntities).joined(separator: ", ")
        rowsByKeysQuery = "SELECT \(selectList) FROM \(table) t0 WHERE t0.Z_PK IN \(dialect.keyList(dialect.placeholder(1)))"
        fetchIndexStatements = Self.fetchIndexStatements(for: root, table: table, columns: columns)
    }

    /// One index per `NSFetchIndexDescription`, named as Apple's store names them
    /// (`Z_<Entity>_<name>`), over the columns of its elements in order. Elements whose
    /// property has no single column (a to-many relationship, a composite) are left out.
    private static func fetchIndexStatements(for root: NSEntityDescription, table: String, columns: [SQLColumn]) -> [String] {
        root.selfAndDescendants.flatMap { entity in
            entity.indexes.compactMap { index -> String? in
                let terms = index.elements.compactMap { element -> String? in
                    guard let column = columns.first(where: { $0.property.name == element.propertyName && $0.elementPath.isEmpty }) else { return nil }
                    return element.isAscending ? column.name : column.name + " DESC"
                }
                guard !terms.isEmpty else { return nil }
                return "CREATE INDEX Z_\(entity.name ?? "")_\(index.name) ON \(table) (\(terms.joined(separator: ", ")))"
            }
        }
    }

    /// Appends the values of `columns` for `row`, as a save binds them.
    func appendColumnValues(of row: RowSnapshot, to values: inout [SQLValue]) throws {
        let index = row.values.index
        for (position, column) in columns.enumerated() {
            let ordinal = index === rootIndex ? rootOrdinals[position] : index.ordinals[column.property.name]
            values.append(try value(of: column, at: ordinal, in: row))
        }
    }

    /// The value `column` binds: the row's value at `ordinal` (nil when the row's entity has
    /// no such property) in its column form.
    private func value(of column: SQLColumn, at ordinal: Int?, in row: RowSnapshot) throws -> SQLValue {
        // A column of a sibling entity sharing the table stays NULL.
        guard let ordinal, let value = row.values[ordinal: ordinal] else { return .null }
        if !column.elementPath.isEmpty, let element = column.storedAttribute {
            guard case .other(let elements as [String: Any]) = value else { return .null }
            return try SQLValueCoding.encode(NSCompositeAttributeDescription.value(in: elements, at: column.elementPath[...]), as: element)
        }
        if let attribute = row.values.index.properties[ordinal] as? NSAttributeDescription {
            return try SQLValueCoding.encode(value, as: attribute)
        }
        guard case .objectID(let target) = value, let key = target.primaryKey else { return .null }
        return .integer(key)
    }

    /// The columns a stored property takes: none for a to-many relationship, one per element
    /// for a composite attribute, one otherwise.
    private static func columns(of property: NSPropertyDescription) -> [SQLColumn] {
        switch property {
        case let composite as NSCompositeAttributeDescription:
            return composite.leaves.map { leaf in
                SQLColumn(name: SQLiteSchema.column(for: composite, element: leaf.path), property: composite,
                             elementPath: leaf.path, storedAttribute: leaf.attribute)
            }
        case let attribute as NSAttributeDescription:
            return [SQLColumn(name: SQLiteSchema.column(for: attribute), property: attribute, elementPath: [], storedAttribute: attribute)]
        case let relationship as NSRelationshipDescription where !relationship.isToMany:
            return [SQLColumn(name: SQLiteSchema.column(for: relationship), property: relationship, elementPath: [], storedAttribute: nil)]
        default:
            return []
        }
    }

    /// Every column of the table with its declared type, in table order.
    var columnTypes: [(name: String, type: String)] {
        let integer = dialect.columnType("INTEGER")
        return [("Z_PK", integer), ("Z_ENT", integer), ("Z_OPT", integer)]
            + columns.map { ($0.name, $0.storedAttribute.map { dialect.columnType(SQLiteSchema.columnType(for: $0)) } ?? integer) }
            + orderColumns.map { ($0, integer) }
    }

    /// `CREATE TABLE` for this table.
    var createStatement: String {
        let definitions = columnTypes.map { $0.name == "Z_PK" ? "Z_PK \($0.type) PRIMARY KEY" : "\($0.name) \($0.type)" }
        return "CREATE TABLE \(table) (\(definitions.joined(separator: ", ")))"
    }

    /// Indexes on the entity column and every foreign key, so relationship faults and joins are
    /// index look-ups.
    var indexStatements: [String] {
        var statements = ["CREATE INDEX \(table)_Z_ENT_INDEX ON \(table) (Z_ENT)"]
        for column in columns where column.property is NSRelationshipDescription || column.property.isIndexed {
            statements.append("CREATE INDEX \(table)_\(column.name)_INDEX ON \(table) (\(column.name))")
        }
        return statements + fetchIndexStatements
    }
}
