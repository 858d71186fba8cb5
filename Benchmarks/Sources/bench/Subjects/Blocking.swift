#if POSTGRESQL_CASES
import Dispatch

/// Runs async work to its end from the benchmark's synchronous main thread, and returns its
/// result.
///
/// The harness times synchronous closures, while postgres-nio is used here through its async
/// API, as its documentation shows. The work runs as a detached task on the cooperative pool,
/// which the main thread is not part of, so waiting on a semaphore cannot deadlock; a task that
/// inherited the main actor would wait for the thread that waits for it. The bridge costs one
/// task start and one wake-up per call, microseconds against the milliseconds timed.
func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = Outcome<T>()
    Task.detached {
        do { outcome.result = .success(try await work()) } catch { outcome.result = .failure(error) }
        outcome.done.signal()
    }
    outcome.done.wait()
    return try outcome.result!.get()
}

/// The result of `blocking`'s task: written once before `done` is signalled, read once after,
/// so the semaphore orders the two accesses.
private final class Outcome<T>: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var result: Result<T, any Error>?
}
#endif
