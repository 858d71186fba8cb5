#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`: the job of `Synchronization.Mutex`, done so that
/// ThreadSanitizer can see it.
///
/// On Linux `Mutex` waits on a futex inside the uninstrumented standard library, so TSan sees
/// neither its lock nor its unlock and reports every value it guards as raced. `pthread_mutex`
/// calls are intercepted by TSan wherever they come from. The cost is one allocation per
/// guarded value and an uncontended lock/unlock pair (tens of nanoseconds) per access.
final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
