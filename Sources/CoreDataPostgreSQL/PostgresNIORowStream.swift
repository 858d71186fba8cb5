import Foundation
import PostgresNIO

/// The rows of one statement on their way from postgres-nio's event loop, which receives them,
/// to the thread waiting for the statement (a context's queue), which visits them.
///
/// The event loop never waits: it appends each row and wakes the reader if it is asleep. The
/// reader takes every row that has arrived at once, visits them while later ones arrive, and
/// lets them go; it sleeps on a condition only when it has caught up. postgres-nio's row
/// callback has no flow control (its only flow-controlled API is async, and would need a task
/// on Swift's cooperative pool, which the waiting thread may be one of), so rows the reader has
/// not reached yet wait here as received, in their wire form.
/// `Answer` is what the driver answers at the end: a statement's metadata, or the prepared
/// statement a preparation made (which has no rows).
final class PostgresNIORowStream<Answer>: @unchecked Sendable {
    /// How a statement ended: answered (its answer or its error), or its connection closed
    /// first.
    enum End {
        case answered(Result<Answer, any Error>)
        case connectionClosed
    }

    /// Thrown to postgres-nio for a row the reader no longer wants: it cancels the statement and
    /// reads the rest of the result off the wire, discarding it, before the connection's next
    /// statement.
    private struct Abandoned: Error {}

    private let condition = NSCondition()
    /// Guarded by `condition`: rows received and not yet taken, in order.
    private var arrived: [PostgresRow] = []
    private var end: End?
    private var readerAsleep = false
    private var abandoned = false

    /// On the event loop: one more row.
    func receive(_ row: PostgresRow) throws {
        condition.lock()
        defer { condition.unlock() }
        if abandoned { throw Abandoned() }
        arrived.append(row)
        if readerAsleep { condition.signal() }
    }

    /// The statement's end; the first one reported counts.
    func finish(_ end: End) {
        condition.lock()
        if self.end == nil { self.end = end }
        condition.signal()
        condition.unlock()
    }

    /// On the waiting thread: hands every row to `visit` in order as it arrives, and returns
    /// how the statement ended once every row before the end is visited. If `visit` throws, the
    /// rest of the result is abandoned and the error rethrown.
    func read(_ visit: (PostgresRow) throws -> Void) throws -> End {
        var taken: [PostgresRow] = []
        while true {
            condition.lock()
            while arrived.isEmpty && end == nil {
                readerAsleep = true
                condition.wait()
            }
            readerAsleep = false
            // The two buffers change places, so neither is reallocated batch after batch.
            swap(&taken, &arrived)
            let finished = taken.isEmpty ? end : nil
            condition.unlock()
            if let finished { return finished }
            do {
                for row in taken { try visit(row) }
            } catch {
                abandon()
                throw error
            }
            taken.removeAll(keepingCapacity: true)
        }
    }

    private func abandon() {
        condition.lock()
        abandoned = true
        arrived = []
        condition.unlock()
    }
}
