/// A dictionary fetch resolved against the model before any store sees it: each property to
/// fetch or group by becomes an expression over the entity's rows with the type its values are
/// returned as, and every misuse (unknown key or function, a function on the wrong type, a
/// column neither grouped nor aggregated) throws here, so no store is touched by a bad request.
struct DictionaryFetch {
    /// One key of the result dictionaries.
    struct Column {
        let name: String
        let expression: ExpressionNode
        /// What values are returned as (`.objectIDAttributeType` for relationships and SELF).
        let resultType: NSAttributeType
        /// The entity of returned object IDs, when `resultType` is `.objectIDAttributeType`.
        let objectEntity: NSEntityDescription?
        /// True when the expression holds `sum:`, `count:` ... and so reads a whole group.
        let isAggregate: Bool
    }

    /// Entity, predicate, sort descriptors, limit and offset.
    let fetch: StoreFetch
    let columns: [Column]
    let groupBy: [Column]
    let having: PredicateNode?
    let distinct: Bool
    /// The request as the caller made it, for stores that take requests whole
    /// (`NSIncrementalStore`).
    let request: NSPersistentStoreRequest

    /// Whether a column needs `median:`, `mode:` or `stddev:`, which SQL lacks: the store then
    /// reads the rows' values and groups them in Swift (`DictionaryAggregation`).
    var needsSwiftAggregation: Bool {
        columns.contains { $0.expression.callsAny(of: [.median, .mode, .stddev]) }
    }

    /// The column a name (an expression description's, or a fetched key path) refers to.
    func column(named name: String) -> Column? {
        columns.first { $0.name == name }
    }

    init<T>(request: NSFetchRequest<T>, fetch: StoreFetch) throws {
        let entity = fetch.entity
        self.fetch = fetch
        self.request = request
        let fetched = request.propertiesToFetch ?? entity.properties.filter { !$0.isTransient && !(($0 as? NSRelationshipDescription)?.isToMany ?? false) }
        columns = try fetched.map { try Self.column(for: $0, in: entity, role: "propertiesToFetch") }
        groupBy = try (request.propertiesToGroupBy ?? []).map { try Self.column(for: $0, in: entity, role: "propertiesToGroupBy") }
        distinct = request.returnsDistinctResults
        // `$count` in a havingPredicate names the fetched expression description `count`, as on
        // Apple platforms; a bare `count` does too.
        let columnNames = Dictionary(columns.map { ($0.name, NSExpression(forKeyPath: $0.name) as Any) }, uniquingKeysWith: { first, _ in first })
        having = try request.havingPredicate.map { try PredicateSubstitution.substitute($0.parsedTree(), columnNames) }
        if having != nil, groupBy.isEmpty {
            throw CoreDataError.misuse("A havingPredicate needs propertiesToGroupBy")
        }
        if let duplicate = Dictionary(grouping: columns, by: \.name).first(where: { $0.value.count > 1 })?.key {
            throw CoreDataError.misuse("propertiesToFetch names '\(duplicate)' twice")
        }
        try checkGrouping()
    }

    /// SQL's rule, which Apple's store enforces too: with GROUP BY, a column is either one of
    /// the grouped expressions or an aggregate; without it, aggregates cannot sit beside
    /// per-row values (there would be no row to take them from).
    private func checkGrouping() throws {
        let grouped = Set(groupBy.map(\.expression))
        for column in columns where !column.isAggregate && !SQLCompiler.isConstant(column.expression) {
            if !groupBy.isEmpty, !grouped.contains(column.expression) {
                throw CoreDataError.misuse("'\(column.name)' in propertiesToFetch is neither in propertiesToGroupBy nor an aggregate (sum:, count:, min:, max:, average:, median:, mode:, stddev:)")
            }
            if groupBy.isEmpty, columns.contains(where: \.isAggregate) {
                throw CoreDataError.misuse("'\(column.name)' is a per-row value beside an aggregate; add it to propertiesToGroupBy")
            }
        }
        for column in groupBy where column.isAggregate {
            throw CoreDataError.misuse("'\(column.name)' in propertiesToGroupBy is an aggregate")
        }
    }

    private static func column(for property: Any, in entity: NSEntityDescription, role: String) throws -> Column {
        switch property {
        case let name as String:
            return try keyPathColumn(name, in: entity)
        case let description as NSExpressionDescription:
            guard !description.name.isEmpty else { throw CoreDataError.misuse("An NSExpressionDescription in \(role) has no name") }
            guard let expression = description.expression else {
                throw CoreDataError.misuse("The NSExpressionDescription '\(description.name)' has no expression")
            }
            if let error = expression.parseError { throw error }
            let typed = try ExpressionTyping(entity: entity).type(of: expression.node)
            let resultType = description.expressionResultType == .undefinedAttributeType ? typed.type : description.expressionResultType
            return Column(name: description.name, expression: expression.node, resultType: resultType,
                          objectEntity: typed.objectEntity, isAggregate: expression.node.callsAny(of: ExpressionFunction.aggregates))
        case let description as NSPropertyDescription:
            guard entity.propertiesByName[description.name] != nil else {
                throw CoreDataError.misuse("\(role) holds property '\(description.name)', which \(entity.name ?? "") does not have")
            }
            return try keyPathColumn(description.name, in: entity)
        default:
            throw CoreDataError.misuse("\(role) holds \(property) (\(type(of: property))): expected a name, a property description or an NSExpressionDescription")
        }
    }

    private static func keyPathColumn(_ keyPath: String, in entity: NSEntityDescription) throws -> Column {
        // "objectID" fetches each row's object ID, as Apple's store allows, unless the entity
        // has a property of that name.
        let node = keyPath == "objectID" && entity.propertiesByName[keyPath] == nil ? ExpressionNode.evaluatedObject : .key(keyPath)
        let typed = try ExpressionTyping(entity: entity).type(of: node)
        return Column(name: keyPath, expression: node, resultType: typed.type, objectEntity: typed.objectEntity, isAggregate: false)
    }
}

extension ExpressionFunction {
    static let aggregates: Set<ExpressionFunction> = [.sum, .count, .min, .max, .average, .median, .mode, .stddev]
}

extension ExpressionNode {
    /// Whether the expression calls one of `functions` anywhere inside it.
    func callsAny(of functions: Set<ExpressionFunction>) -> Bool {
        switch self {
        case .function(let selector, let arguments):
            if let function = ExpressionFunction(selector: selector), functions.contains(function) { return true }
            return arguments.contains { $0.callsAny(of: functions) }
        case .aggregate(let items): return items.contains { $0.callsAny(of: functions) }
        case .keyPath(let base, _): return base.callsAny(of: functions)
        default: return false
        }
    }

    /// The largest parts that hold no aggregate, which SQL computes per row: the arguments of
    /// aggregates and whole per-row expressions.
    var rowLevelParts: [ExpressionNode] {
        switch self {
        case .constant: return []
        case .function(let selector, let arguments):
            guard callsAny(of: ExpressionFunction.aggregates) else { return [self] }
            if let function = ExpressionFunction(selector: selector), function.isAggregate { return arguments }
            return arguments.flatMap(\.rowLevelParts)
        default: return [self]
        }
    }
}
