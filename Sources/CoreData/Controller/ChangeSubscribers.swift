/// The continuations of the controller's `changes` streams.
///
/// Locked because a stream's termination handler runs on whatever thread cancels it, while
/// yielding happens on the context's queue.
final class ChangeSubscribers: @unchecked Sendable {
    private let lock = NSLock()
    private var continuations: [UUID: AsyncStream<FetchedResultsChange>.Continuation] = [:]

    /// Whether anyone listens: the controller skips building summaries otherwise.
    var isActive: Bool {
        lock.withLock { !continuations.isEmpty }
    }

    /// A new stream; it ends when the controller goes away or the consumer stops.
    func makeStream() -> AsyncStream<FetchedResultsChange> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: FetchedResultsChange.self, bufferingPolicy: .unbounded)
        let key = UUID()
        lock.withLock { continuations[key] = continuation }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.continuations.removeValue(forKey: key) }
        }
        return stream
    }

    func yield(_ change: FetchedResultsChange) {
        let targets = lock.withLock { Array(continuations.values) }
        for continuation in targets { continuation.yield(change) }
    }

    func finishAll() {
        let targets = lock.withLock {
            defer { continuations.removeAll() }
            return Array(continuations.values)
        }
        for continuation in targets { continuation.finish() }
    }
}
