/// Orders and pages fetched rows in Swift, for sort keys a database cannot order as
/// `SortSelector` does (`SQLCompiler.SortTerm.ordersInSQL`). Each row carries its sort keys'
/// values after its own columns and its primary key first, which breaks ties as ORDER BY's
/// `t0.Z_PK` does.
struct SwiftOrdering {
    private let keys: [(kind: SQLOperand.Kind, selector: SortSelector, ascending: Bool)]
    private let limit: Int
    private let offset: Int

    init(terms: [SQLCompiler.SortTerm], limit: Int, offset: Int) {
        keys = terms.map { ($0.operand.kind, $0.selector, $0.ascending) }
        self.limit = limit
        self.offset = offset
    }

    /// `rows` in order, paged, without the sort-key columns.
    func apply(to rows: [SQLValueRow]) -> [SQLValueRow] {
        guard let first = rows.first else { return [] }
        let keyStart = first.values.count - keys.count
        let sortValues = rows.map { row in keys.indices.map { Self.constant(row.values[keyStart + $0], kind: keys[$0].kind) } }
        let order = rows.indices.sorted { left, right in
            for (index, key) in keys.enumerated() {
                let result = key.selector.compare(sortValues[left][index], sortValues[right][index])
                if result != .orderedSame { return (result == .orderedAscending) == key.ascending }
            }
            return rows[left].int64(at: 0) < rows[right].int64(at: 0)
        }
        let end = limit > 0 ? min(order.count, offset + limit) : order.count
        guard offset < end else { return [] }
        return order[offset..<end].map { SQLValueRow(values: Array(rows[$0].values[..<keyStart])) }
    }

    /// A column value as the in-memory comparison sees a value of `kind`.
    private static func constant(_ value: SQLValue, kind: SQLOperand.Kind) -> ConstantValue {
        switch (value, kind) {
        case (.null, _): .null
        case (.real(let seconds), .date): .date(Date(timeIntervalSinceReferenceDate: seconds))
        case (.integer(let seconds), .date): .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
        case (.text(let text), .url): URL(string: text).map(ConstantValue.url) ?? .string(text)
        case (.integer(let number), _): .int(number)
        case (.real(let number), _): .double(number)
        case (.text(let text), _): .string(text)
        case (.blob(let bytes), _): .data(Data(bytes))
        }
    }
}
