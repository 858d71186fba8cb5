#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The serial queues the current thread is inside, kept per thread.
///
/// `DispatchQueue.getSpecific` sees only the innermost queue, so a thread inside a parent's
/// queue and then a child's cannot tell that it still holds the parent's: a nested synchronous
/// call back into the parent would `sync` onto a queue its own thread owns, which traps in
/// libdispatch. Like GRDB's `SchedulingWatchdog`, a synchronous hop hands the caller's set to the
/// block it runs, so that set grows along the chain of waiting threads, even when the block runs on
/// another thread (the main queue's blocks always run on the main thread).
///
/// Thread-local storage is one `pthread` key; reading it costs a few nanoseconds and no lock.
enum QueueWatchdog {
    /// Per-thread storage: the identities of the held queues, innermost last.
    private final class HeldQueues {
        var identities: [ObjectIdentifier] = []
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<HeldQueues>.fromOpaque(pointer).release()
        }
        precondition(status == 0, "CoreData: pthread_key_create failed (\(status))")
        return key
    }()

    private static var heldQueues: HeldQueues {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<HeldQueues>.fromOpaque(pointer).takeUnretainedValue()
        }
        let created = HeldQueues()
        pthread_setspecific(key, Unmanaged.passRetained(created).toOpaque())
        return created
    }

    /// The queues the current thread holds; handed on by a synchronous hop.
    static var held: [ObjectIdentifier] { heldQueues.identities }

    /// Whether the current thread is inside `queue` (directly, or through a chain of threads
    /// each waiting synchronously on the next).
    static func holds(_ queue: AnyObject) -> Bool {
        heldQueues.identities.contains(ObjectIdentifier(queue))
    }

    /// Runs `body` as the current thread's work inside `queue`, holding `inherited` as well.
    static func run<T>(inside queue: AnyObject, inheriting inherited: [ObjectIdentifier], _ body: () throws -> T) rethrows -> T {
        let storage = heldQueues
        let saved = storage.identities
        storage.identities = inherited + [ObjectIdentifier(queue)]
        defer { storage.identities = saved }
        return try body()
    }
}
