/// Dictionary fetches in SQL: fetched key paths (joined through to-one relationships),
/// aggregates, GROUP BY, HAVING, DISTINCT, ORDER BY and LIMIT in one statement, so only the
/// result rows leave the database; written once for SQLite and PostgreSQL. `median:`, `mode:`
/// and `stddev:` have no SQL form: for those the statement selects each row's values and
/// `DictionaryAggregation` groups them in Swift.
extension SQLTableStore {
    /// The request's dictionaries, read on `session`.
    func dictionaries(_ request: DictionaryFetch, _ session: Session) throws -> [NSDictionary] {
        request.needsSwiftAggregation ? try aggregateInSwift(request, session) : try aggregateInSQL(request, session)
    }

    private func aggregateInSQL(_ request: DictionaryFetch, _ session: Session) throws -> [NSDictionary] {
        let fetch = request.fetch
        let compiler = SQLCompiler(entity: fetch.entity, includesSubentities: fetch.includesSubentities, dialect: dialect)
        let columns = ResultColumnCompiler(compiler: compiler, request: request)
        var selected: [String] = []
        var readers: [(String, (Session.Row, inout Int32) -> Any?)] = []
        for column in request.columns {
            var operand = try columns.operand(column.expression)
            if request.distinct, operand.kind == .string { operand.sql = dialect.distinctString(operand.sql) }
            readers.append((column.name, reader(for: column, operand: operand, selecting: &selected)))
        }
        let groups = try request.groupBy.map { try columns.operand($0.expression).sql }
        let having = try request.having.map(columns.condition)
        let condition = try compiler.whereClause(for: fetch.predicate?.parsedTree())
        var order = try columns.orderBy(fetch.sortDescriptors)
        if order.isEmpty, groups.isEmpty, !request.distinct, !request.columns.contains(where: \.isAggregate) { order = "t0.Z_PK" }

        var sql = "SELECT \(request.distinct ? "DISTINCT " : "")\(selected.joined(separator: ", ")) FROM \(compiler.fromClause) WHERE \(condition)"
        if !groups.isEmpty { sql += " GROUP BY " + groups.joined(separator: ", ") }
        if let having { sql += " HAVING " + having }
        if !order.isEmpty { sql += " ORDER BY " + order }
        if fetch.limit > 0 || fetch.offset > 0 {
            sql += " LIMIT \(compiler.bind(fetch.limit > 0 ? .integer(Int64(fetch.limit)) : dialect.noLimit)) OFFSET \(compiler.bind(.integer(Int64(fetch.offset))))"
        }
        var results: [NSDictionary] = []
        try session.query(sql, compiler.bindings) { row in
            var entry: [String: Any] = [:]
            var index: Int32 = 0
            for (name, read) in readers { entry[name] = read(row, &index) }
            results.append(NSDictionary(dictionary: entry))
        }
        return results
    }

    /// Adds the SQL a column needs to `selected` and returns how to read its value: object IDs
    /// need the row's entity too when the destination has subentities.
    private func reader(for column: DictionaryFetch.Column, operand: SQLOperand, selecting selected: inout [String]) -> (Session.Row, inout Int32) -> Any? {
        selected.append(operand.sql)
        guard column.resultType == .objectIDAttributeType, let declared = column.objectEntity else {
            return { row, index in
                defer { index += 1 }
                return DictionaryValueCoercion.coerce(DictionaryValueCoercion.constant(row.value(at: index)), to: column.resultType)
            }
        }
        let readsEntity = !declared.subentities.isEmpty
        if readsEntity { selected.append("(SELECT Z_ENT FROM \(SQLiteSchema.table(for: declared)) WHERE Z_PK = \(operand.sql))") }
        return { row, index in
            defer { index += readsEntity ? 2 : 1 }
            guard !row.isNull(at: index) else { return nil }
            let entity = readsEntity ? self.entity(number: row.int64(at: index + 1), fallback: declared) : declared
            return self.objectID(for: entity, primaryKey: row.int64(at: index))
        }
    }

    /// Reads each row's values for every per-row expression the request needs (aggregate
    /// arguments, grouped and plain columns) and lets Swift group and aggregate them.
    private func aggregateInSwift(_ request: DictionaryFetch, _ session: Session) throws -> [NSDictionary] {
        let fetch = request.fetch
        let compiler = SQLCompiler(entity: fetch.entity, includesSubentities: fetch.includesSubentities, dialect: dialect)
        let columns = ResultColumnCompiler(compiler: compiler, request: request)
        var leaves: [ExpressionNode] = []
        for node in request.columns.map(\.expression) + request.groupBy.map(\.expression) {
            for leaf in node.rowLevelParts where !leaves.contains(leaf) { leaves.append(leaf) }
        }
        let typing = ExpressionTyping(entity: fetch.entity)
        var selected: [String] = []
        var readers: [(Session.Row, inout Int32) -> Any?] = []
        for leaf in leaves {
            let typed = try typing.type(of: leaf)
            let column = DictionaryFetch.Column(name: "", expression: leaf, resultType: typed.type, objectEntity: typed.objectEntity, isAggregate: false)
            readers.append(reader(for: column, operand: try columns.operand(leaf), selecting: &selected))
        }
        let condition = try compiler.whereClause(for: fetch.predicate?.parsedTree())
        var order = request.sortsByResultNames ? "" : try compiler.orderByClause(for: fetch.sortDescriptors)
        order += order.isEmpty ? "t0.Z_PK" : ", t0.Z_PK"
        let sql = "SELECT \(selected.isEmpty ? "1" : selected.joined(separator: ", ")) FROM \(compiler.fromClause) WHERE \(condition) ORDER BY \(order)"
        var records: [[ConstantValue]] = []
        try session.query(sql, compiler.bindings) { row in
            var index: Int32 = 0
            records.append(readers.map { read in
                let value = read(row, &index)
                return value is NSManagedObjectID ? .object(OpaqueValue(value!)) : ConstantValue(any: value)
            })
        }
        let positions = Dictionary(uniqueKeysWithValues: leaves.enumerated().map { ($1, $0) })
        return try DictionaryAggregation<[ConstantValue]>(request: request) { record, node in
            if case .constant(let value) = node { return value }
            guard let position = positions[node] else { throw CoreDataError.misuse("\(PredicateFormatter.format(node)) was not read") }
            return record[position]
        }.results(records)
    }
}
