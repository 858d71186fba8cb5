import Synchronization

/// A table read on every object creation and written a handful of times per process (the
/// managed-object classes seen so far): readers take one acquiring atomic load and no lock.
///
/// A write copies the value under a lock, changes the copy and publishes it with a releasing
/// store. The values it replaces stay allocated for the life of the table, since a reader may
/// still hold one without a reference count; use it only where writes are bounded (one per
/// class, say), never for data that grows with use.
final class ReadMostly<Value>: @unchecked Sendable {
    private final class Snapshot {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private let current: Atomic<Unmanaged<Snapshot>>
    /// Guards writers, and keeps every superseded snapshot alive.
    private let retired = Locked<[Unmanaged<Snapshot>]>([])

    init(_ value: Value) {
        current = Atomic(Unmanaged.passRetained(Snapshot(value)))
    }

    deinit {
        current.load(ordering: .acquiring).release()
        retired.withLock { $0.forEach { $0.release() } }
    }

    /// The latest published value.
    var value: Value {
        current.load(ordering: .acquiring).takeUnretainedValue().value
    }

    /// Publishes `body`'s change to a copy of the latest value; returns what `body` returns.
    @discardableResult
    func update<Result>(_ body: (inout Value) -> Result) -> Result {
        retired.withLock { retired in
            let old = current.load(ordering: .acquiring)
            var copy = old.takeUnretainedValue().value
            let result = body(&copy)
            current.store(Unmanaged.passRetained(Snapshot(copy)), ordering: .releasing)
            retired.append(old)
            return result
        }
    }
}
