/// What the PostgreSQL store asks of one connection to the server.
///
/// The `CoreDataPostgreSQL` product implements it on postgres-nio and installs it
/// (`PostgreSQLDriver`), so that `import CoreData` alone never builds a network stack. Calls
/// block the calling thread (a context's queue) until the server answers; the driver waits on
/// its event loop, never the other way round.
package protocol PostgreSQLConnection: AnyObject, Sendable {
    /// Runs one statement with its bound values; returns its rows (none for most writes) and
    /// the number of rows it inserted, updated or deleted.
    func execute(_ sql: String, _ bindings: [SQLValue]) throws -> PostgreSQLResult
    /// Whether the connection can still be used (the server may have closed it).
    var isOpen: Bool { get }
    func close()
}

/// The rows and row count of one statement.
package struct PostgreSQLResult: Sendable {
    package var rows: [[SQLValue]]
    package var affectedRows: Int

    package init(rows: [[SQLValue]], affectedRows: Int) {
        self.rows = rows
        self.affectedRows = affectedRows
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
