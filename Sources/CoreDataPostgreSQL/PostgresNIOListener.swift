import Dispatch
import NIOCore
import PostgresNIO

/// A `LISTEN` on a connection of its own. Payloads are handed over on a serial queue of its
/// own, never on the event loop, since the receiver may query the store (which waits on the
/// event loop). When the connection drops it reconnects (every half second until the server
/// is back) and then reports one empty payload, since commits made meanwhile were announced
/// to nobody.
final class PostgresNIOListener: PostgreSQLListener, @unchecked Sendable {
    private let endpoint: PostgreSQLEndpoint
    private let channel: String
    private let received: @Sendable (String) -> Void
    private let delivery = DispatchQueue(label: "CoreDataPostgreSQL.notifications")
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var connection: PostgresConnection?
    private var stopped = false

    init(endpoint: PostgreSQLEndpoint, channel: String, received: @escaping @Sendable (String) -> Void) throws {
        self.endpoint = endpoint
        self.channel = channel
        self.received = received
        try attach(try PostgresNIOConnector.open(endpoint))
    }

    func stop() {
        lock.lock()
        stopped = true
        let connection = self.connection
        self.connection = nil
        lock.unlock()
        try? connection?.close().wait()
    }

    private func attach(_ connection: PostgresConnection) throws {
        connection.addListener(channel: channel) { [received, delivery] _, notification in
            let payload = notification.payload
            delivery.async { received(payload) }
        }
        do {
            _ = try connection.query(PostgresQuery(unsafeSQL: "LISTEN \(channel)"), logger: PostgresNIOConnector.logger).wait()
        } catch {
            try? connection.close().wait()
            throw PostgresNIOConnection.failure(error)
        }
        lock.lock()
        let keep = !stopped
        if keep { self.connection = connection }
        lock.unlock()
        guard keep else {
            try? connection.close().wait()
            return
        }
        connection.closeFuture.whenComplete { [weak self] _ in self?.reconnectLater() }
    }

    private func reconnectLater() {
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { [weak self] in
            guard let self else { return }
            lock.lock()
            let stopped = self.stopped
            lock.unlock()
            guard !stopped else { return }
            do {
                try attach(try PostgresNIOConnector.open(endpoint))
                delivery.async { [received] in received("") }
            } catch {
                reconnectLater()
            }
        }
    }
}
