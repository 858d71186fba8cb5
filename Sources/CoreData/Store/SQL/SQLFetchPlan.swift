/// The SQL for one store fetch: the compiled predicate and sort, a primary-key tie-break so
/// equal sort keys come back in a stable order, and paging.
///
/// When a sort key cannot be ordered in SQL as in memory (`SortTerm.ordersInSQL`), the plan
/// selects every sort key's value after the requested columns, with no ORDER BY and no
/// paging, and `swiftOrder` sorts and pages the rows.
struct SQLFetchPlan {
    private let compiler: SQLCompiler
    private let whereClause: String
    private let orderClause: String
    private let isPaged: Bool
    /// Set when the rows are to be ordered and paged in Swift.
    let swiftOrder: SwiftOrdering?
    private let sortColumns: [String]

    init(fetch: StoreFetch, dialect: SQLDialect = .sqlite) throws {
        compiler = SQLCompiler(entity: fetch.entity, includesSubentities: fetch.includesSubentities, dialect: dialect)
        whereClause = try compiler.whereClause(for: fetch.predicate?.parsedTree())
        let terms = try compiler.sortTerms(for: fetch.sortDescriptors)
        isPaged = fetch.limit > 0 || fetch.offset > 0
        guard terms.allSatisfy({ $0.ordersInSQL(dialect) }) else {
            swiftOrder = SwiftOrdering(terms: terms, limit: fetch.limit, offset: fetch.offset)
            sortColumns = terms.map(\.operand.sql)
            orderClause = ""
            return
        }
        swiftOrder = nil
        sortColumns = []
        let order = compiler.orderByClause(for: terms)
        var orderClause = order.isEmpty ? "t0.Z_PK" : order + ", t0.Z_PK"
        if isPaged {
            let limit = compiler.bind(fetch.limit > 0 ? .integer(Int64(fetch.limit)) : dialect.noLimit)
            orderClause += " LIMIT \(limit) OFFSET \(compiler.bind(.integer(Int64(fetch.offset))))"
        }
        self.orderClause = orderClause
    }

    var bindings: [SQLValue] { compiler.bindings }

    /// Whether the fetch matches every row of its table: no predicate, no paging, and an
    /// entity whose rows are all the table holds.
    var coversWholeTable: Bool { whereClause == compiler.dialect.literal(true) && !isPaged }

    /// The number of rows the fetch returns. Without paging, order does not matter, so the
    /// count runs as a plain `SELECT COUNT(*)` with no sort or subquery.
    var countSQL: String {
        isPaged
            ? "SELECT COUNT(*) FROM (\(sql(selecting: "t0.Z_PK"))) AS page"
            : "SELECT COUNT(*) FROM \(compiler.fromClause) WHERE \(whereClause)"
    }

    func sql(selecting columns: String) -> String {
        guard swiftOrder == nil else {
            return "SELECT \(([columns] + sortColumns).joined(separator: ", ")) FROM \(compiler.fromClause) WHERE \(whereClause)"
        }
        return "SELECT \(columns) FROM \(compiler.fromClause) WHERE \(whereClause) ORDER BY \(orderClause)"
    }
}
