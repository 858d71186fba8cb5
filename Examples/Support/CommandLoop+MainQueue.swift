import Foundation

/// Running commands on the main queue, for programs whose view context must see merges that
/// other contexts deliver to the main queue between commands.
extension CommandLoop {
    /// Reads commands on a background thread and runs each on the main queue, which this call
    /// turns over to `dispatchMain()`. Work other queues send to the main queue (a background
    /// save merging into the view context) runs before `settled`, which is called after each
    /// command once the main queue has caught up. Never returns.
    public func runOnMainQueue(prompt: String, settled: @escaping @MainActor () -> Void = {},
                               _ handle: @escaping @MainActor (Command) throws -> Bool) -> Never {
        let reader = MainQueueReader(loop: self, prompt: prompt, handle: handle, settled: settled)
        Thread { reader.readAll() }.start()
        dispatchMain()
    }
}

/// Carries the loop to its reader thread; the loop is only used there, and `handle` only on
/// the main queue.
private final class MainQueueReader: @unchecked Sendable {
    let loop: CommandLoop
    let prompt: String
    let handle: @MainActor (Command) throws -> Bool
    let settled: @MainActor () -> Void

    init(loop: CommandLoop, prompt: String, handle: @escaping @MainActor (Command) throws -> Bool,
         settled: @escaping @MainActor () -> Void) {
        self.loop = loop
        self.prompt = prompt
        self.handle = handle
        self.settled = settled
    }

    func readAll() {
        loop.run(prompt: prompt) { command in
            defer {
                // Blocks queued on the main queue by the command (merges) run before this one.
                DispatchQueue.main.sync { MainActor.assumeIsolated { settled() } }
            }
            return try DispatchQueue.main.sync {
                try MainActor.assumeIsolated { try handle(command) }
            }
        }
        // Let anything still queued for the main queue finish before leaving.
        DispatchQueue.main.sync {}
        DispatchQueue.main.sync { exit(0) }
    }
}
