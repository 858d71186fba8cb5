/// Swift concurrency: fetch without blocking, and changes as an asynchronous sequence.
extension NSFetchedResultsController {
    /// `performFetch()` without blocking the caller: the fetch runs on the context's queue
    /// (through `perform`), and the caller resumes with the results in place.
    ///
    /// Not an `async` overload of `performFetch()`: in asynchronous code Swift would pick it
    /// for every `try controller.performFetch()` written for Apple platforms and demand `await`.
    ///
    /// For example:
    /// ```swift
    /// try await controller.performFetchAsync()
    /// print(controller.fetchedObjects?.count ?? 0)
    /// ```
    nonisolated(nonsending) public func performFetchAsync() async throws {
        let state = UncheckedSendable(self.state)
        // The state is touched only on the context's queue, inside `perform`.
        try await managedObjectContext.perform { try state.value.fetchOnQueue() }
    }

    /// Every change of the results from now on, as Sendable snapshots and differences, ending
    /// when the controller goes away. Each call makes an independent sequence; while none is
    /// being consumed, nothing is computed for it.
    ///
    /// For example:
    /// ```swift
    /// for await change in controller.changes {
    ///     render(change.snapshot)
    /// }
    /// ```
    public var changes: AsyncStream<FetchedResultsChange> {
        state.subscribers.makeStream()
    }
}
