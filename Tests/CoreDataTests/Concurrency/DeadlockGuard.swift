import Foundation
import Testing

/// Runs `body` on a thread of its own and waits for it at most `seconds`.
///
/// Nested queue calls that go wrong deadlock (or trap); a deadlock must fail the test, not hang
/// CI. On a timeout the stuck thread is abandoned and the test records an issue.
func runGuarded<T>(seconds: Double = 30, _ what: String = #function,
                   sourceLocation: SourceLocation = #_sourceLocation,
                   _ body: @escaping @Sendable () throws -> T) throws -> T? {
    try waitGuarded(seconds: seconds, what, sourceLocation: sourceLocation, body) { work in
        let thread = Thread(block: work)
        thread.name = "guarded: \(what)"
        thread.start()
    }
}

/// `runGuarded` for a body that must run on the main queue (a main-queue context's work, or
/// the main thread waiting for another queue). On a timeout the main queue stays blocked.
func runGuardedOnMainQueue<T>(seconds: Double = 30, _ what: String = #function,
                              sourceLocation: SourceLocation = #_sourceLocation,
                              _ body: @escaping @Sendable () throws -> T) throws -> T? {
    try waitGuarded(seconds: seconds, what, sourceLocation: sourceLocation, body) { DispatchQueue.main.async(execute: $0) }
}

/// Starts `body` with `start` and waits for it at most `seconds`.
private func waitGuarded<T>(seconds: Double, _ what: String, sourceLocation: SourceLocation,
                            _ body: @escaping @Sendable () throws -> T,
                            start: (@escaping @Sendable () -> Void) -> Void) throws -> T? {
    let outcome = GuardedOutcome<T>()
    let done = DispatchSemaphore(value: 0)
    start {
        outcome.set(Result { try body() })
        done.signal()
    }
    guard done.wait(timeout: .now() + seconds) == .success else {
        Issue.record("\(what) did not finish within \(seconds) s: deadlocked", sourceLocation: sourceLocation)
        return nil
    }
    return try outcome.result!.get()
}

private final class GuardedOutcome<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Result<T, Error>?
    func set(_ result: Result<T, Error>) { lock.withLock { stored = result } }
    var result: Result<T, Error>? { lock.withLock { stored } }
}
