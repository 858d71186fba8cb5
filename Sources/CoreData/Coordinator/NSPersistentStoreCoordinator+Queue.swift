/// Running work on the coordinator's queue, with the same reentrancy as a context's: a call
/// nested inside the coordinator's own block (directly or through contexts' `performAndWait`)
/// runs inline instead of deadlocking.
extension NSPersistentStoreCoordinator {
    /// Runs `block` asynchronously on the coordinator's queue.
    public func perform(_ block: @escaping () -> Void) {
        queue.async(block)
    }

    /// Runs `block` on the coordinator's queue and waits for it; at once when already there.
    public func performAndWait(_ block: () -> Void) {
        queue.sync(block)
    }

    /// Runs `block` on the coordinator's queue and returns its result.
    ///
    /// For example:
    /// ```swift
    /// let count = coordinator.performAndWait { coordinator.persistentStores.count }
    /// ```
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        try queue.sync(block)
    }

    /// Runs `block` on the coordinator's queue without blocking the caller; `rethrows`, as on
    /// Apple platforms.
    public func perform<T>(_ block: @escaping () throws -> T) async rethrows -> T {
        let outcome = await queue.outcome(of: block)
        return try rethrowing { try outcome.get() }
    }
}
