/// The serial queue a context or coordinator confines its work to, on which any synchronous call
/// nesting that Apple's Core Data allows runs without trapping or deadlocking.
///
/// A synchronous call runs inline when the current thread already holds this queue (see
/// `QueueWatchdog`), and otherwise through `DispatchQueue.sync`, handing the caller's held
/// queues to the block. So `parent.performAndWait { child.performAndWait { try child.save() } }`
/// runs the parent's part of the save inline instead of `sync`ing onto the parent's own queue.
///
/// Every main-queue context shares `ReentrantQueue.main`: they all confine to one queue.
final class ReentrantQueue: @unchecked Sendable {
    private let dispatchQueue: DispatchQueue
    private let isMain: Bool

    /// The main queue, shared by every main-queue context.
    static let main: ReentrantQueue = {
        DispatchQueue.main.setSpecific(key: mainQueueMarker, value: ())
        return ReentrantQueue(dispatchQueue: .main, isMain: true)
    }()

    /// Set on the main dispatch queue. After `dispatchMain()` (Swift Testing's runner, and any
    /// program that parks its main thread there), libdispatch drains the main queue on worker
    /// threads, where `Thread.isMainThread` is false; the queue-specific value still says where
    /// a block runs. Only the main queue needs it: `getSpecific` sees the innermost queue only,
    /// and every other way of holding a queue is tracked by `QueueWatchdog`.
    private static let mainQueueMarker = DispatchSpecificKey<Void>()

    private init(dispatchQueue: DispatchQueue, isMain: Bool) {
        self.dispatchQueue = dispatchQueue
        self.isMain = isMain
    }

    /// A new private serial queue.
    convenience init(label: String) {
        self.init(dispatchQueue: DispatchQueue(label: label), isMain: false)
    }

    /// Whether the current thread may touch what this queue confines. The main thread always
    /// holds the main queue: code there is either main-queue work or blocks every main-queue
    /// block until it returns.
    var isCurrent: Bool {
        if isMain, Thread.isMainThread || DispatchQueue.getSpecific(key: Self.mainQueueMarker) != nil { return true }
        return QueueWatchdog.holds(self)
    }

    /// Runs `block` on this queue and waits for it; inline when the thread already holds it.
    func sync<T>(_ block: () throws -> T) rethrows -> T {
        if isCurrent { return try block() }
        let inherited = QueueWatchdog.held
        return try withoutActuallyEscaping(block) { escapable in
            // The block runs while the caller waits, so nothing it captures is shared.
            let work = UncheckedSendable(escapable)
            return try dispatchQueue.sync {
                UncheckedSendable(try QueueWatchdog.run(inside: self, inheriting: inherited, work.value))
            }.value
        }
    }

    /// Runs `block` on this queue later, as the only queue the running thread holds.
    func async(_ block: @escaping () -> Void) {
        let work = UncheckedSendable(block)
        dispatchQueue.async { QueueWatchdog.run(inside: self, inheriting: [], work.value) }
    }

    /// Runs `body` on this queue later and suspends the caller until it returns, handing back
    /// what it returned or threw.
    nonisolated(nonsending) func outcome<T>(of body: @escaping () throws -> T) async -> Result<T, any Error> {
        // The block runs while the caller is suspended, so nothing it captures is used twice at once.
        let work = UncheckedSendable(body)
        return await withCheckedContinuation { (continuation: CheckedContinuation<UncheckedSendable<Result<T, any Error>>, Never>) in
            async { continuation.resume(returning: UncheckedSendable(Result(catching: work.value))) }
        }.value
    }
}

/// Returns what `body` returns or throws what it throws, and lets a function declared
/// `rethrows` throw an error its block threw on another queue.
///
/// A `rethrows` function may throw only through calls that rethrow; a call of this function,
/// generic over the error `body` throws, is one to the compiler. So `perform(schedule:_:)` can be
/// `rethrows` as Apple's is, and awaiting a block that cannot throw needs no `try`.
func rethrowing<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
    try body()
}
