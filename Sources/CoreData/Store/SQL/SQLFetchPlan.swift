/// The SQL for one store fetch: the compiled predicate and sort, a primary-key tie-break so
/// equal sort keys come back in a stable order, and paging.
struct SQLFetchPlan {
    private let compiler: SQLCompiler
    private let whereClause: String
    private let orderClause: String
    private let isPaged: Bool

    init(fetch: StoreFetch, dialect: SQLDialect = .sqlite) throws {
        compiler = SQLCompiler(entity: fetch.entity, includesSubentities: fetch.includesSubentities, dialect: dialect)
        whereClause = try compiler.whereClause(for: fetch.predicate?.parsedTree())
        let order = try compiler.orderByClause(for: fetch.sortDescriptors)
        var orderClause = order.isEmpty ? "t0.Z_PK" : order + ", t0.Z_PK"
        isPaged = fetch.limit > 0 || fetch.offset > 0
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
        "SELECT \(columns) FROM \(compiler.fromClause) WHERE \(whereClause) ORDER BY \(orderClause)"
    }
}
