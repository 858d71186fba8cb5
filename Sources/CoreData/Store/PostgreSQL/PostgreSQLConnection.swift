/// What the PostgreSQL store asks of one connection to the server: one call per statement.
///
/// Why this shape:
/// - A protocol here, implemented by the `CoreDataPostgreSQL` product on postgres-nio and
///   installed through `PostgreSQLDriver`, so that `import CoreData` alone never builds a network
///   stack. What the driver needs of this module (`SQLRow`, `SQLValue`, `PostgreSQLFailure`) is
///   `package`, nothing more.
/// - Synchronous: the callers are contexts' queues, which wait for the server; the driver waits
///   on its event loop's answer, never the other way round, and a wait ends when the connection
///   closes without answering.
/// - Rows are handed to `row` on the calling thread one at a time, as they arrive, while later
///   ones are still on the wire, and are let go when it returns: nothing collects a result
///   first. The row reads each column from the bytes received (`SQLRow`), so no values are
///   decoded that the reader does not ask for. It comes as `any SQLRow` because its type is the
///   driver's, which this module cannot name.
/// - `row` may throw (a row the model cannot read): the driver then stops handing rows on, has
///   the rest of the result read and discarded so that the connection stays usable for the next
///   statement, and rethrows that error unchanged. The driver's own failures are
///   `PostgreSQLFailure`s.
/// - `execute` returns only the count of rows written: everything else a statement answers
///   comes as rows (`RETURNING`).
/// - `query` is for statements whose count is not read: the fetches, faults and the writes of
///   saves a store repeats in a few shapes. The driver keeps them prepared on the server per
///   connection, so each shape is parsed and planned once per connection, not once per call;
///   postgres-nio answers no count for a prepared statement, hence two calls
///   (`PostgreSQLSession` chooses between them).
package protocol PostgreSQLConnection: AnyObject, Sendable {
    /// Runs one statement with its bound values, hands each row of its result to `row`, and
    /// returns the number of rows it inserted, updated or deleted.
    func execute(_ sql: String, _ bindings: [SQLValue], row: (any SQLRow) throws -> Void) throws -> Int
    /// Runs one statement as `execute` does, without its count, on a statement prepared once
    /// per connection for its text and the types of its bound values.
    func query(_ sql: String, _ bindings: [SQLValue], row: (any SQLRow) throws -> Void) throws
    /// Whether the connection can still be used (the server may have closed it).
    var isOpen: Bool { get }
    func close()
}

extension PostgreSQLConnection {
    /// Runs a statement whose rows, if any, nobody reads.
    @discardableResult
    package func execute(_ sql: String, _ bindings: [SQLValue]) throws -> Int {
        try execute(sql, bindings) { _ in }
    }
}

/// Opens connections and listens for notifications: the driver.
package protocol PostgreSQLConnector: Sendable {
    /// A new connection whose `search_path` is the endpoint's schema.
    func connect(to endpoint: PostgreSQLEndpoint) throws -> any PostgreSQLConnection
    /// Calls `received` with the payload of every `NOTIFY` on `channel`, on a connection of its
    /// own, until the returned listener is stopped; reconnects if the connection drops.
    func listen(to endpoint: PostgreSQLEndpoint, channel: String,
                received: @escaping @Sendable (String) -> Void) throws -> any PostgreSQLListener
}

/// A running `LISTEN`.
package protocol PostgreSQLListener: AnyObject, Sendable {
    func stop()
}

/// Where a server error left the store: the driver maps PostgreSQL's failures to these, so
/// the store can tell a lost connection (retry later, keep the changes) from a refused
/// statement.
package enum PostgreSQLFailure: Error, Sendable {
    /// The server could not be reached, or the connection dropped mid-statement.
    case connectionLost(String)
    /// The server refused the statement; `state` is its SQLSTATE (`23505` unique violation).
    case refused(state: String, message: String)
}
