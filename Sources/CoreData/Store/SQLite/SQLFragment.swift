/// A piece of SQL with the values bound to its placeholders.
///
/// Values never appear in `sql`: each is a numbered placeholder `?N` whose value is
/// `bindings[N - 1]`, so a fragment may repeat a placeholder (BETWEEN uses its operand twice)
/// and quotes, `%`, `_` or NUL bytes in values are matched literally.
struct SQLFragment: Equatable {
    var sql: String
    var bindings: [SQLValue]

    init(_ sql: String, _ bindings: [SQLValue] = []) {
        self.sql = sql
        self.bindings = bindings
    }
}
