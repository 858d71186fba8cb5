/// The connections of one PostgreSQL store: up to `capacity` open at once, each lent to one
/// caller at a time. A connection that failed is closed instead of returned, so the next
/// borrower connects afresh: that is how a store survives a server restart.
final class PostgreSQLConnectionPool: @unchecked Sendable {
    private let connector: any PostgreSQLConnector
    private let endpoint: PostgreSQLEndpoint
    private let capacity: Int
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var idle: [any PostgreSQLConnection] = []
    private var open = 0
    private var closed = false

    init(connector: any PostgreSQLConnector, endpoint: PostgreSQLEndpoint, capacity: Int) {
        self.connector = connector
        self.endpoint = endpoint
        self.capacity = capacity
    }

    /// Runs `body` on a connection, waiting for one when all are lent.
    func withConnection<T>(_ body: (PostgreSQLSession) throws -> T) throws -> T {
        let connection = try borrow()
        do {
            let result = try body(PostgreSQLSession(connection: connection))
            giveBack(connection, healthy: true)
            return result
        } catch let failure as PostgreSQLFailure {
            giveBack(connection, healthy: !failure.isConnectionLoss && connection.isOpen)
            throw failure
        } catch {
            giveBack(connection, healthy: connection.isOpen)
            throw error
        }
    }

    /// Takes a connection out of the pool for as long as the caller likes (a query generation
    /// holds one): an idle one if there is one, else a new one. It no longer counts against
    /// `capacity`, and this never waits for a lent connection, so however many are taken out,
    /// readers and writers still get theirs.
    func detach() throws -> any PostgreSQLConnection {
        condition.lock()
        if let connection = takeIdleConnection() {
            open -= 1
            condition.unlock()
            return connection
        }
        let closed = self.closed
        condition.unlock()
        if closed { throw PostgreSQLFailure.connectionLost("the store was removed from its coordinator") }
        return try connector.connect(to: endpoint)
    }

    /// Takes back a connection `detach` gave out: kept if it is healthy and the pool has room,
    /// closed otherwise.
    func reattach(_ connection: any PostgreSQLConnection, healthy: Bool) {
        condition.lock()
        let keep = healthy && !closed && open < capacity
        if keep {
            idle.append(connection)
            open += 1
            condition.signal()
        }
        condition.unlock()
        if !keep { connection.close() }
    }

    func close() {
        condition.lock()
        closed = true
        let connections = idle
        idle = []
        condition.broadcast()
        condition.unlock()
        for connection in connections { connection.close() }
    }

    /// An idle connection that is still open, still counted in `open`; nil when none is idle.
    /// Ones the server closed while idle (a restart) are closed and uncounted on the way, to
    /// be replaced rather than used. Call with `condition` locked; it is unlocked around closes.
    private func takeIdleConnection() -> (any PostgreSQLConnection)? {
        while let connection = idle.popLast() {
            if connection.isOpen { return connection }
            open -= 1
            condition.unlock()
            connection.close()
            condition.lock()
        }
        return nil
    }

    private func borrow() throws -> any PostgreSQLConnection {
        condition.lock()
        while true {
            if closed {
                condition.unlock()
                throw PostgreSQLFailure.connectionLost("the store was removed from its coordinator")
            }
            if let connection = takeIdleConnection() {
                condition.unlock()
                return connection
            }
            if open < capacity { break }
            condition.wait()
        }
        open += 1
        condition.unlock()
        do {
            return try connector.connect(to: endpoint)
        } catch {
            condition.lock()
            open -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    private func giveBack(_ connection: any PostgreSQLConnection, healthy: Bool) {
        condition.lock()
        let keep = healthy && !closed
        if keep { idle.append(connection) } else { open -= 1 }
        condition.signal()
        condition.unlock()
        if !keep { connection.close() }
    }
}

extension PostgreSQLFailure {
    var isConnectionLoss: Bool {
        if case .connectionLost = self { return true }
        return false
    }
}
