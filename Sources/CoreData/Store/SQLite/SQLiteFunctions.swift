/// Registers the functions and collations compiled predicates and sorts call on a connection.
enum SQLiteFunctions {
    static func register(on connection: SQLiteConnection) {}
}
