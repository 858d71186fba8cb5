/// The tables of one model in a SQL store: each root entity's layout, and each entity's row
/// decoder by entity number (Z_ENT), as rows name their entity.
///
/// Built once when the store loads, then only read: a class, so that a fetch takes one reference
/// to it and every row's look-up is an array index, not a hash of the entity's name.
final class SQLTableCatalog {
    /// By root entity name.
    let layouts: [String: SQLTableLayout]
    /// Indexed by entity number; nil where the model has no entity of that number.
    private let rowDecoders: [SQLRowDecoder?]
    let dialect: SQLDialect
    /// The version check of each set of tables a save has touched, made once per set.
    private let versionQueries = Locked<[[String]: String]>([:])
    /// The statements of each to-many relationship a save has written, made once each.
    private let toManyStatements = Locked<[ObjectIdentifier: ToManyStatements]>([:])

    init(model: NSManagedObjectModel, dialect: SQLDialect) {
        self.dialect = dialect
        var layouts: [String: SQLTableLayout] = [:]
        for entity in model.entities where entity.superentity == nil {
            layouts[entity.name ?? ""] = SQLTableLayout(root: entity, dialect: dialect)
        }
        var decoders = [SQLRowDecoder?](repeating: nil, count: (model.entities.map(\.entityNumber).max() ?? 0) + 1)
        for entity in model.entities {
            decoders[entity.entityNumber] = SQLRowDecoder(entity: entity, layout: layouts[entity.rootEntity.name ?? ""]!)
        }
        self.layouts = layouts
        rowDecoders = decoders
    }

    /// An empty catalog, for a store not loaded yet.
    init(dialect: SQLDialect) {
        self.dialect = dialect
        layouts = [:]
        rowDecoders = []
    }

    /// The decoder of entity number `number`, nil for a number the model does not use.
    @inline(__always)
    func rowDecoder(number: Int64) -> SQLRowDecoder? {
        rowDecoders.indices.contains(Int(number)) ? rowDecoders[Int(number)] : nil
    }

    /// The decoder of a row's entity number; a number the model does not have (a row written by
    /// another model) is refused with a Cocoa error, never trusted.
    func rowDecoder(forRowOf number: Int64) throws -> SQLRowDecoder {
        guard let decoder = rowDecoder(number: number) else {
            throw CoreDataError.make(NSPersistentStoreOperationError, "A row names entity number \(number), which the model does not have")
        }
        return decoder
    }

    /// The table of `entity`'s rows: found by entity number, as a save asks for every row, and
    /// by root entity name for an entity of another copy of the model.
    func layout(for entity: NSEntityDescription) -> SQLTableLayout? {
        if let decoder = rowDecoder(number: Int64(entity.entityNumber)), decoder.entity === entity { return decoder.layout }
        return layouts[entity.rootEntity.name ?? ""]
    }

    /// The entity a row's Z_ENT names, or `fallback` when the model has no such number.
    func entity(number: Int64, fallback: NSEntityDescription) -> NSEntityDescription {
        rowDecoder(number: number)?.entity ?? fallback
    }

    /// One statement reading `Z_PK, Z_OPT` of the rows whose keys are bound, one JSON array per
    /// table in `tables`' order, each row led by its table's position in `tables`; on
    /// PostgreSQL it also locks those rows for the rest of the transaction, table after table in
    /// the order given and each table's rows in key order.
    func versionQuery(tables: [String]) -> String {
        if let sql = versionQueries.withLock({ $0[tables] }) { return sql }
        let sql = dialect.versionQuery(tables: tables)
        versionQueries.withLock { $0[tables] = sql }
        return sql
    }

    /// The statements writing `relationship`'s orders or join rows.
    func toManyStatements(of relationship: NSRelationshipDescription) -> ToManyStatements {
        let key = ObjectIdentifier(relationship)
        if let statements = toManyStatements.withLock({ $0[key] }) { return statements }
        let statements = ToManyStatements(relationship: relationship, dialect: dialect)
        toManyStatements.withLock { $0[key] = statements }
        return statements
    }
}
