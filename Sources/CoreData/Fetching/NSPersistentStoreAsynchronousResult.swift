/// The result of a request that runs in the background (an asynchronous fetch): returned at
/// once by `execute(_:)`, it reports progress, carries the error if the work fails, and can
/// stop the work.
open class NSPersistentStoreAsynchronousResult: NSPersistentStoreResult, @unchecked Sendable {
    /// The context that executed the request.
    public let managedObjectContext: NSManagedObjectContext
    /// Why the work failed or stopped; nil while it runs and after it succeeded.
    public internal(set) var operationError: (any Error)?
    /// The work's progress; cancelling it cancels the work.
    public let progress: Progress?

    init(context: NSManagedObjectContext, progress: Progress?) {
        self.managedObjectContext = context
        self.progress = progress
    }

    /// Stops the work: the completion then receives no result and a cancellation error.
    open func cancel() { progress?.cancel() }
}
