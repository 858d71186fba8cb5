/// A dictionary fetch computed in Swift over rows a store has already filtered (and, unless
/// the sort is by result names, ordered): grouping, aggregates, HAVING, DISTINCT, sorting by
/// result names, then offset and limit. The in-memory store uses it for everything; the SQLite
/// store only for `median:`, `mode:` and `stddev:`, which SQL lacks.
///
/// Aggregates run `ExpressionFunction`'s code, which skips nils as SQL aggregates skip NULLs,
/// so both paths return the same values.
struct DictionaryAggregation<Record> {
    let request: DictionaryFetch
    /// The value of a per-row expression (no aggregate inside) for one row.
    let rowValue: (Record, ExpressionNode) throws -> ConstantValue

    func results(_ records: [Record]) throws -> [NSDictionary] {
        var results: [NSDictionary] = []
        var seen = Set<NSDictionary>()
        let having = request.having.map(PredicateEvaluator.init)
        for group in try groups(records) {
            var entry: [String: Any] = [:]
            for column in request.columns {
                entry[column.name] = finalValue(try value(of: column.expression, in: group), column)
            }
            let dictionary = NSDictionary(dictionary: entry)
            if let having, !(try having.evaluate(ResultEntryView(entry: entry))) { continue }
            if request.distinct, !seen.insert(dictionary).inserted { continue }
            results.append(dictionary)
        }
        if request.sortsByResultNames {
            results = try SortComparison(request.fetch.sortDescriptors).sorted(results)
        }
        return InMemoryQuery.page(results, offset: request.fetch.offset, limit: request.fetch.limit)
    }

    /// Rows grouped by the group-by values, groups in order of their first row; one group of
    /// all rows (possibly none) for ungrouped aggregates; one group per row otherwise.
    private func groups(_ records: [Record]) throws -> [[Record]] {
        if request.groupBy.isEmpty {
            return request.columns.contains(where: \.isAggregate) ? [records] : records.map { [$0] }
        }
        var indexByKey: [[ConstantValue]: Int] = [:]
        var groups: [[Record]] = []
        for record in records {
            let key = try request.groupBy.map { try rowValue(record, $0.expression) }
            if let index = indexByKey[key] {
                groups[index].append(record)
            } else {
                indexByKey[key] = groups.count
                groups.append([record])
            }
        }
        return groups
    }

    private func value(of node: ExpressionNode, in group: [Record]) throws -> ConstantValue {
        switch node {
        case .constant(let value):
            return value
        case .function(let selector, let arguments):
            guard let function = ExpressionFunction(selector: selector) else {
                throw CoreDataError.misuse("Unknown function '\(selector)' in a fetched expression")
            }
            let evaluated: [EvaluatedValue] = try function.isAggregate
                ? [.collection(group.map { try rowValue($0, arguments[0]) })]
                : arguments.map { .scalar(try value(of: $0, in: group)) }
            guard case .scalar(let result) = try function.apply(evaluated) else { return .null }
            return result
        default:
            guard let first = group.first else { return .null }
            return try rowValue(first, node)
        }
    }

    private func finalValue(_ value: ConstantValue, _ column: DictionaryFetch.Column) -> Any? {
        if column.resultType == .objectIDAttributeType {
            guard case .object(let opaque) = value else { return nil }
            return ValueComparison.objectID(of: opaque.value)
        }
        return DictionaryValueCoercion.coerce(value, to: column.resultType)
    }
}

extension DictionaryFetch {
    /// True when every sort key names a computed result (an expression description), so the
    /// results are sorted after grouping; otherwise rows are sorted before it.
    var sortsByResultNames: Bool {
        !fetch.sortDescriptors.isEmpty && fetch.sortDescriptors.allSatisfy { descriptor in
            guard let key = descriptor.sortKey?.key, let column = column(named: key) else { return false }
            return column.expression != .key(key)
        }
    }
}

/// A result dictionary as a HAVING predicate reads it: a fetched key path such as
/// `category.name` is one key of the dictionary, yet the predicate walks it step by step.
private struct ResultEntryView: KeyValueReadable {
    let entry: [String: Any]
    var prefix = ""

    func readValue(forKey key: String) -> Any? {
        let path = prefix + key
        if let value = entry[path] { return value }
        let deeper = path + "."
        return entry.keys.contains { $0.hasPrefix(deeper) } ? ResultEntryView(entry: entry, prefix: deeper) : nil
    }
}
