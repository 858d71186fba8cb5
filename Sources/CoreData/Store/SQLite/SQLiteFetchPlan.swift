/// The SQL for one store fetch: the entity filter, the compiled predicate and sort, and paging.
struct SQLiteFetchPlan {
    private var fromClause: String
    private var whereClause: String
    private var orderClause: String
    private(set) var bindings: [SQLValue]

    init(fetch: StoreFetch, layout: SQLiteTableLayout) throws {
        let numbers = fetch.includesSubentities ? SQLiteSchema.entityNumbers(for: fetch.entity) : [fetch.entity.entityNumber]
        fromClause = "\(layout.table) t0"
        whereClause = "t0.Z_ENT IN (\(numbers.map(String.init).joined(separator: ",")))"
        bindings = []
        orderClause = ""
        if fetch.predicate != nil {
            throw CoreDataError.misuse("predicates are not compiled to SQL yet")
        }
        let orderings = try fetch.sortDescriptors.map { descriptor -> String in
            guard let key = Optional<String>.none, let attribute = fetch.entity.attributesByName[key] else {
                throw CoreDataError.misuse("cannot sort \(fetch.entity.name ?? "") by \(descriptor)")
            }
            return "t0.\(SQLiteSchema.column(for: attribute)) \(descriptor.ascending ? "ASC" : "DESC")"
        }
        // Rows with equal sort keys come back in primary-key order, the order the in-memory
        // comparator also falls back to.
        orderClause = (orderings + ["t0.Z_PK"]).joined(separator: ", ")
        if fetch.limit > 0 || fetch.offset > 0 {
            orderClause += " LIMIT ? OFFSET ?"
            bindings += [.integer(fetch.limit > 0 ? Int64(fetch.limit) : -1), .integer(Int64(fetch.offset))]
        }
    }

    func sql(selecting columns: String) -> String {
        "SELECT \(columns) FROM \(fromClause) WHERE \(whereClause) ORDER BY \(orderClause)"
    }
}
