import Foundation

/// Polls `condition` until it holds; throws `TimedOut` naming `what` after `timeout`.
func waitUntil(_ what: @autoclosure () -> String, timeout: Duration = .seconds(15),
               _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw TimedOut(description: "timed out after \(timeout) waiting for \(what())") }
        try await Task.sleep(for: .milliseconds(50))
    }
}

struct TimedOut: Error, CustomStringConvertible {
    let description: String
}
