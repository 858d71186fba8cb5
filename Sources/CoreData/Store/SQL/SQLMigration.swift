/// Runs a mapping model whose every property mapping is a plain copy (`$source.name`, or
/// nothing) on a SQLite or PostgreSQL store in place, in SQL, inside the caller's one
/// transaction: what lightweight migration does.
///
/// Tables whose change `ALTER TABLE` can make are altered (`TableAlteration`); each other old
/// table is renamed aside, each new table is created in the destination layout and filled with
/// one `INSERT … SELECT` per source table, and the old tables are dropped. Rows keep their
/// `Z_PK`, so object IDs and their URIs stay valid; only where a new parent entity merges
/// tables that numbered rows separately are the later table's keys moved past the earlier's
/// (and every reference to them with them). Both databases change their schema
/// transactionally (SQLite in WAL mode, PostgreSQL's DDL), so a failure or a kill at any
/// moment leaves the old store as it was.
struct SQLMigration {
    let source: NSManagedObjectModel
    let destination: NSManagedObjectModel
    let mapping: NSMappingModel

    /// Source entity name → the destination entity and the mapping that continues it.
    let continuations: [String: (entity: NSEntityDescription, mapping: NSEntityMapping)]
    /// Destination entity name → its mapping.
    private let mappingsByDestination: [String: NSEntityMapping]

    private static let asideSuffix = "_MIGRATION_SOURCE"
    /// Tables changed in place with `ALTER TABLE` (see `TableAlteration`).
    private var tablesAltered: Set<String> = []

    init(source: NSManagedObjectModel, destination: NSManagedObjectModel, mapping: NSMappingModel) throws {
        self.source = source
        self.destination = destination
        self.mapping = mapping
        var continuations: [String: (NSEntityDescription, NSEntityMapping)] = [:]
        var byDestination: [String: NSEntityMapping] = [:]
        for entityMapping in mapping.entityMappings {
            guard entityMapping.entityMigrationPolicyClassName == nil, entityMapping.sourceExpression == nil,
                  entityMapping.mappingType != .customEntityMappingType,
                  (entityMapping.attributeMappings ?? []).allSatisfy({ $0.valueExpression == nil || $0.copiedSourceKey != nil }),
                  (entityMapping.relationshipMappings ?? []).allSatisfy({ $0.valueExpression == nil || $0.copiedSourceKey != nil }) else {
                throw CoreDataError.make(NSMigrationMissingMappingModelError,
                    "The entity mapping '\(entityMapping.name ?? "")' computes values or has a migration policy; run it with NSMigrationManager")
            }
            if let name = entityMapping.destinationEntityName {
                byDestination[name] = entityMapping
                if let sourceName = entityMapping.sourceEntityName, let entity = destination.entitiesByName[name] {
                    continuations[sourceName] = (entity, entityMapping)
                }
            }
        }
        self.continuations = continuations
        mappingsByDestination = byDestination
    }

    /// Migrates the store `session` writes to, updating `metadata` (hashes) and the model
    /// archive the store keeps. Runs inside the caller's transaction, so all or nothing.
    func run(on session: some SQLSession, metadata: [String: Any]) throws {
        let layouts = destination.entities.filter { $0.superentity == nil }
            .sorted(by: { ($0.name ?? "") < ($1.name ?? "") }).map { SQLTableLayout(root: $0, dialect: session.dialect) }
        // Tables whose change ALTER TABLE can make keep their rows where they are; the
        // others are renamed aside and rebuilt.
        var alterations: [String: TableAlteration] = [:]
        for layout in layouts {
            if let alteration = try alteration(for: layout, session) { alterations[layout.table] = alteration }
        }
        var migration = self
        migration.tablesAltered = Set(alterations.keys)
        try migration.rebuild(layouts, alterations: alterations, metadata: metadata, session)
    }

    /// Rebuilds the tables that cannot be altered, reading the others as they are, then alters
    /// those (after every read of their old columns) and finishes the bookkeeping.
    private func rebuild(_ layouts: [SQLTableLayout], alterations: [String: TableAlteration], metadata: [String: Any],
                         _ session: some SQLSession) throws {
        let sourceTables = Self.tables(of: source).filter { !tablesAltered.contains($0) }
        for table in sourceTables where try tableExists(table, session) {
            try session.write("ALTER TABLE \(table) RENAME TO \(table)\(Self.asideSuffix)", [])
        }
        let offsets = try keyOffsets(session)
        for layout in layouts where !tablesAltered.contains(layout.table) {
            try session.write(layout.createStatement, [])
            try fill(layout, offsets: offsets, session)
        }
        let joinTables = SQLiteSchema.joinTables(in: destination)
        for joinTable in joinTables { try session.write(joinTable.createStatement(dialect: session.dialect), []) }
        try fillJoinTables(offsets: offsets, session)
        let desiredIndexes = layouts.flatMap(\.indexStatements)
        for alteration in alterations.values.sorted(by: { $0.table < $1.table }) {
            try alteration.apply(keepingIndexes: Set(desiredIndexes.map(TableAlteration.indexName(in:))), session)
        }
        try checkMandatoryValues(layouts, session)
        for table in sourceTables where try tableExists(table + Self.asideSuffix, session) {
            try session.write("DROP TABLE \(table)\(Self.asideSuffix)", [])
        }
        for statement in desiredIndexes + joinTables.map(\.indexStatement) {
            try session.write(statement.replacingOccurrences(of: "CREATE INDEX ", with: "CREATE INDEX IF NOT EXISTS "), [])
        }
        try rewriteBookkeeping(metadata: metadata, session)
    }

    // MARK: Tables

    /// Every table a model's store has besides the bookkeeping ones.
    private static func tables(of model: NSManagedObjectModel) -> [String] {
        let entityTables = model.entities.filter { $0.superentity == nil }.map(SQLiteSchema.table(for:))
        let joinTables = model.entities.flatMap { entity in
            entity.properties.compactMap { property -> String? in
                guard let relationship = property as? NSRelationshipDescription, relationship.isToMany, !relationship.isTransient,
                      case .joinTable(let table, _, _, _) = SQLiteSchema.storage(of: relationship) else { return nil }
                return table
            }
        }
        return Array(Set(entityTables + joinTables)).sorted()
    }

    func tableExists(_ table: String, _ session: some SQLSession) throws -> Bool {
        try session.scalar(session.dialect.tableExistsQuery, [.text(table)]) != nil
    }

    /// Where a source table's old rows are read during the migration: renamed aside, or in
    /// place for a table that is altered (after every read).
    private func aside(_ table: String) -> String { tablesAltered.contains(table) ? table : table + Self.asideSuffix }

    /// How far each source table's keys move: zero, except where a destination table gathers
    /// rows from several source tables, whose keys could collide. Then the table with the
    /// most keys keeps them (so most URIs stay valid) and the others move past it.
    private func keyOffsets(_ session: some SQLSession) throws -> [String: Int64] {
        var offsets: [String: Int64] = [:]
        for root in destination.entities where root.superentity == nil {
            var maxima: [(name: String, maximum: Int64)] = []
            let names = Set(root.selfAndDescendants.compactMap { sourceEntity(for: $0)?.rootEntity.name })
            guard names.count > 1 else { continue }
            for name in names where offsets[name] == nil {
                let table = aside(SQLiteSchema.table(for: source.entitiesByName[name]!))
                guard case .integer(let maximum)? = try session.scalar("SELECT MAX(Z_PK) FROM \(table)", []) else {
                    maxima.append((name, 0))
                    continue
                }
                maxima.append((name, maximum))
            }
            var next: Int64 = 0
            for (name, maximum) in maxima.sorted(by: { ($0.maximum, $1.name) > ($1.maximum, $0.name) }) {
                offsets[name] = next
                next += maximum
            }
        }
        return offsets
    }

    func sourceEntity(for entity: NSEntityDescription) -> NSEntityDescription? {
        mappingsByDestination[entity.name ?? ""]?.sourceEntityName.flatMap { source.entitiesByName[$0] }
    }

    private func offset(of entity: NSEntityDescription?, _ offsets: [String: Int64]) -> Int64 {
        offsets[entity?.rootEntity.name ?? ""] ?? 0
    }

    // MARK: Rows

    /// Copies into `layout`'s new table the rows of every source entity it continues, one
    /// `INSERT … SELECT` per source table.
    private func fill(_ layout: SQLTableLayout, offsets: [String: Int64], _ session: some SQLSession) throws {
        let pairs = continued(in: layout)
        for sourceRoot in Set(pairs.map { $0.source.rootEntity.name ?? "" }).sorted() {
            let group = pairs.filter { $0.source.rootEntity.name == sourceRoot }
            let keyOffset = offsets[sourceRoot] ?? 0
            let entityNumbers = Self.caseByEntity(group.map { ($0.source, ColumnValue(sql: String($0.destination.entityNumber))) })
            var values = ["t.Z_PK + \(keyOffset)", entityNumbers.sql, "t.Z_OPT"]
            var bindings: [SQLValue] = []
            for column in layout.columns {
                let value = try columnValue(column, group: group, offsets: offsets, dialect: session.dialect)
                values.append(value.sql)
                bindings += value.bindings
            }
            for order in layout.orderColumns {
                values.append(orderValue(order, group: group, dialect: session.dialect))
            }
            let names = ["Z_PK", "Z_ENT", "Z_OPT"] + layout.columns.map(\.name) + layout.orderColumns
            let numbers = group.map { String($0.source.entityNumber) }.joined(separator: ", ")
            let table = aside(SQLiteSchema.table(for: group[0].source))
            let insert = "INSERT INTO \(layout.table) (\(names.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM \(table) t WHERE t.Z_ENT IN (\(numbers))"
            try session.write(session.dialect.numberingPlaceholders(insert), bindings)
        }
    }

    /// The destination entities of `layout`'s table that continue a source entity, with it.
    func continued(in layout: SQLTableLayout) -> [(source: NSEntityDescription, destination: NSEntityDescription)] {
        guard let root = destination.entitiesByName.values.first(where: { $0.superentity == nil && SQLiteSchema.table(for: $0) == layout.table }) else { return [] }
        return root.selfAndDescendants.compactMap { entity in sourceEntity(for: entity).map { (source: $0, destination: entity) } }
    }

    /// One expression when every source entity gives the same, else a `CASE` on the row's
    /// source entity.
    private static func caseByEntity(_ expressions: [(NSEntityDescription, ColumnValue)]) -> ColumnValue {
        if let first = expressions.first?.1, expressions.allSatisfy({ $0.1 == first }) { return first }
        let branches = expressions.map { "WHEN \($0.0.entityNumber) THEN \($0.1.sql)" }.joined(separator: " ")
        return ColumnValue(sql: "(CASE t.Z_ENT \(branches) ELSE NULL END)", bindings: expressions.flatMap(\.1.bindings))
    }

    /// The SQL value of `column` for the rows of a group of source entities.
    func columnValue(_ column: SQLColumn, group: [(source: NSEntityDescription, destination: NSEntityDescription)],
                     offsets: [String: Int64], dialect: SQLDialect) throws -> ColumnValue {
        Self.caseByEntity(try group.map { pair in
            (pair.source, try value(of: column, for: pair.destination, from: pair.source, offsets: offsets, dialect: dialect))
        })
    }

    /// The SQL value of `column` for rows of `entity` continued from rows of `sourceEntity`.
    private func value(of column: SQLColumn, for entity: NSEntityDescription, from sourceEntity: NSEntityDescription,
                       offsets: [String: Int64], dialect: SQLDialect) throws -> ColumnValue {
        // A column of another entity sharing the table stays empty for this entity's rows.
        guard let property = entity.propertiesByName[column.property.name], !property.isTransient else { return .null }
        let entityMapping = mappingsByDestination[entity.name ?? ""]
        if let relationship = property as? NSRelationshipDescription {
            let key = entityMapping?.relationshipMappings?.first { $0.name == relationship.name }?.copiedSourceKey
            guard let key, let sourceRelationship = sourceEntity.relationshipsByName[key] else { return .null }
            let destinationOffset = offset(of: sourceRelationship.destinationEntity, offsets)
            let moved = destinationOffset == 0 ? "" : " + \(destinationOffset)"
            if !sourceRelationship.isToMany {
                return ColumnValue(sql: "t.\(SQLiteSchema.column(for: sourceRelationship))\(moved)")
            }
            // A to-many that became a to-one keeps the first member.
            return ColumnValue(sql: "(SELECT p.dst\(moved) FROM (\(memberPairs(of: sourceRelationship, dialect: dialect))) p WHERE p.src = t.Z_PK ORDER BY p.ord LIMIT 1)")
        }
        guard let declared = property as? NSAttributeDescription else { return .null }
        // The attribute whose values the column holds: the element's, for a composite.
        let composite = declared as? NSCompositeAttributeDescription
        guard let attribute = composite.map({ $0.leaves.first { $0.path == column.elementPath }?.attribute }) ?? declared else { return .null }
        let key = entityMapping?.attributeMappings?.first { $0.name == declared.name }?.copiedSourceKey
        var copied: String?
        // A mandatory source column holds no nils for a default to fill.
        var sourceMandatory = false
        if let key, let sourceAttribute = sourceEntity.attributesByName[key] {
            sourceMandatory = !sourceAttribute.isOptional
            if let composite = sourceAttribute as? NSCompositeAttributeDescription {
                if let leaf = composite.leaves.first(where: { $0.path == column.elementPath }),
                   let conversion = AttributeConversion(from: leaf.attribute, to: attribute) {
                    copied = conversion.sql("t.\(SQLiteSchema.column(for: composite, element: leaf.path))", dialect: dialect)
                }
            } else if let conversion = AttributeConversion(from: sourceAttribute, to: attribute) {
                copied = conversion.sql("t.\(SQLiteSchema.column(for: sourceAttribute))", dialect: dialect)
            }
        }
        guard let defaultValue = attribute.defaultValue else { return copied.map { ColumnValue(sql: $0) } ?? .null }
        // New attributes start at their default, as do nils of attributes made mandatory.
        if let copied, (attribute.isOptional && declared.isOptional) || sourceMandatory { return ColumnValue(sql: copied) }
        let bound = try SQLValueCoding.encodeFoundation(defaultValue, as: attribute)
        let placeholder = ColumnValue.placeholder
        return ColumnValue(sql: copied.map { "COALESCE(\($0), \(placeholder))" } ?? placeholder, bindings: [bound])
    }

    /// The order value of an ordered one-to-many's member rows: the source's order where the
    /// source relationship was ordered the same way, else the key, which keeps insertion order.
    private func orderValue(_ column: String, group: [(source: NSEntityDescription, destination: NSEntityDescription)], dialect: SQLDialect) -> String {
        for relationship in destination.entities.flatMap({ $0.relationshipsByName.values }) where relationship.isOrdered {
            guard case .inverseForeignKey(_, _, column?) = SQLiteSchema.storage(of: relationship),
                  let owner = sourceEntity(for: relationship.entity),
                  let key = mappingsByDestination[relationship.entity.name ?? ""]?.relationshipMappings?.first(where: { $0.name == relationship.name })?.copiedSourceKey,
                  let sourceRelationship = owner.relationshipsByName[key], sourceRelationship.isToMany else { continue }
            return "COALESCE((SELECT p.ord FROM (\(memberPairs(of: sourceRelationship, dialect: dialect))) p WHERE p.dst = t.Z_PK LIMIT 1), t.Z_PK)"
        }
        return "t.Z_PK"
    }

    /// A query of the source store's `(src, dst, ord)` rows: each link of `relationship`, from
    /// the key of its owner to the key of its member, with the member's position.
    private func memberPairs(of relationship: NSRelationshipDescription, dialect: SQLDialect) -> String {
        let owners = SQLiteSchema.entityNumbers(for: relationship.entity).map(String.init).joined(separator: ", ")
        guard relationship.isToMany else {
            let column = SQLiteSchema.column(for: relationship)
            return "SELECT Z_PK AS src, \(column) AS dst, Z_PK AS ord FROM \(aside(SQLiteSchema.table(for: relationship.entity))) WHERE \(column) IS NOT NULL AND Z_ENT IN (\(owners))"
        }
        switch SQLiteSchema.storage(of: relationship) {
        case .inverseForeignKey(let table, let column, let order):
            let members = relationship.destinationEntity.map { SQLiteSchema.entityNumbers(for: $0).map(String.init).joined(separator: ", ") } ?? ""
            return "SELECT \(column) AS src, Z_PK AS dst, \(order ?? "Z_PK") AS ord FROM \(aside(table)) WHERE \(column) IS NOT NULL AND Z_ENT IN (\(members))"
        case .joinTable(let table, let sourceColumn, let destinationColumn, let order):
            return "SELECT \(sourceColumn) AS src, \(destinationColumn) AS dst, \(order ?? dialect.linkOrder(member: destinationColumn)) AS ord FROM \(aside(table))"
        }
    }

    /// Fills each new join table from the source relationship its writing side continues.
    private func fillJoinTables(offsets: [String: Int64], _ session: some SQLSession) throws {
        for entity in destination.entities {
            for relationship in entity.relationshipsByName.values where relationship.entity === entity && relationship.isToMany && !relationship.isTransient {
                guard case .joinTable(let table, let sourceColumn, let destinationColumn, let order) = SQLiteSchema.storage(of: relationship),
                      SQLiteSchema.writesJoinTable(relationship),
                      let owner = sourceEntity(for: entity),
                      let key = mappingsByDestination[entity.name ?? ""]?.relationshipMappings?.first(where: { $0.name == relationship.name })?.copiedSourceKey,
                      let sourceRelationship = owner.relationshipsByName[key] else { continue }
                let ownerOffset = offset(of: sourceRelationship.entity, offsets)
                let memberOffset = offset(of: sourceRelationship.destinationEntity, offsets)
                let columns = [sourceColumn, destinationColumn] + (order.map { [$0] } ?? [])
                let values = ["p.src + \(ownerOffset)", "p.dst + \(memberOffset)"] + (order == nil ? [] : ["p.ord"])
                let select = "SELECT \(values.joined(separator: ", ")) FROM (\(memberPairs(of: sourceRelationship, dialect: session.dialect))) p"
                try session.write(session.dialect.insertSkippingDuplicates(into: table, columns: columns, select: select), [])
            }
        }
    }

    /// A mandatory attribute that some migrated row leaves nil (made mandatory without a
    /// default) fails the migration, as saving such an object would fail. Only columns that
    /// can have gained a nil are read: one scan each.
    func checkMandatoryValues(_ layouts: [SQLTableLayout], _ session: some SQLSession) throws {
        for layout in layouts {
            let group = continued(in: layout)
            for column in layout.columns where column.elementPath.isEmpty {
                guard let attribute = column.property as? NSAttributeDescription, !attribute.isOptional, attribute.defaultValue == nil,
                      !(attribute is NSDerivedAttributeDescription), mayHaveGainedNil(attribute, group: group) else { continue }
                let numbers = SQLiteSchema.entityNumbers(for: attribute.entity).map(String.init).joined(separator: ", ")
                guard case .integer(let count)? = try session.scalar("SELECT COUNT(*) FROM \(layout.table) WHERE \(column.name) IS NULL AND Z_ENT IN (\(numbers))", []),
                      count > 0 else { continue }
                throw CoreDataError.make(NSValidationMissingMandatoryPropertyError,
                    "\(count) migrated \(attribute.entity.name ?? "") rows have no value for the mandatory attribute '\(attribute.name)', which has no default value",
                    [NSValidationKeyErrorKey: attribute.name])
            }
        }
    }

    /// Whether some continued entity takes `attribute` from nothing or from an optional one.
    private func mayHaveGainedNil(_ attribute: NSAttributeDescription, group: [(source: NSEntityDescription, destination: NSEntityDescription)]) -> Bool {
        group.contains { pair in
            guard pair.destination.propertiesByName[attribute.name] != nil else { return false }
            let key = mappingsByDestination[pair.destination.name ?? ""]?.attributeMappings?.first { $0.name == attribute.name }?.copiedSourceKey
            return key.flatMap { pair.source.attributesByName[$0] }.map(\.isOptional) ?? true
        }
    }

    /// Z_PRIMARYKEY anew (each entity's counter continues after its table's largest key), the
    /// metadata's version hashes, and the model archive.
    private func rewriteBookkeeping(metadata: [String: Any], _ session: some SQLSession) throws {
        try session.write("DELETE FROM Z_PRIMARYKEY", [])
        let values = (1...3).map(session.dialect.placeholder).joined(separator: ", ")
        for entity in destination.entities {
            let table = SQLiteSchema.table(for: entity)
            try session.write("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (\(values), (SELECT COALESCE(MAX(Z_PK), 0) FROM \(table)))",
                                   [.integer(Int64(entity.entityNumber)), .text(entity.name ?? ""), .integer(Int64(entity.superentity?.entityNumber ?? 0))])
        }
        let metadata = metadata.merging(VersionHash.storeMetadata(of: destination)) { $1 }
        try SQLModelCache.write(metadata: metadata, model: destination, on: session)
    }
}

/// A column's value in a migration's `INSERT … SELECT`: SQL over the source row `t`, with the
/// values its placeholders take (each a bare `placeholder`, numbered when the statement is
/// put together: `SQLDialect.numberingPlaceholders`).
struct ColumnValue: Equatable {
    var sql: String
    var bindings: [SQLValue] = []

    static let null = ColumnValue(sql: "NULL")
    static let placeholder = "?"
}
