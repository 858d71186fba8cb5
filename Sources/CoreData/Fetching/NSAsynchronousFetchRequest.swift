/// A fetch that runs off the calling thread and reports back on the context's queue.
///
/// For example:
/// ```swift
/// let asyncFetch = NSAsynchronousFetchRequest(fetchRequest: venueFetch) { result in
///     venues = result.finalResult ?? []
/// }
/// try context.execute(asyncFetch)
/// ```
open class NSAsynchronousFetchRequest<ResultType>: NSPersistentStoreRequest, AsynchronousFetchStarting {
    /// The fetch to run; its results come back typed as its `ResultType`.
    public let fetchRequest: NSFetchRequest<ResultType>
    /// Called on the context's queue when the fetch completes, fails or is cancelled.
    public let completionBlock: ((NSAsynchronousFetchResult<ResultType>) -> Void)?
    /// Accepted for source compatibility; progress is always reported per fetch.
    public var estimatedResultCount = 0

    /// Wraps `request`; pass the result to `NSManagedObjectContext.execute(_:)` to start it.
    public init(fetchRequest request: NSFetchRequest<ResultType>, completionBlock blk: ((NSAsynchronousFetchResult<ResultType>) -> Void)?) {
        self.fetchRequest = request
        self.completionBlock = blk
    }

    func start(in context: NSManagedObjectContext) throws -> NSPersistentStoreResult {
        try context.startAsynchronousFetch(self)
    }
}

/// The handle `execute(_:)` returns at once for an asynchronous fetch; `finalResult` is set when
/// the fetch completes. Its progress counts fetched rows.
open class NSAsynchronousFetchResult<ResultType>: NSPersistentStoreAsynchronousResult, @unchecked Sendable {
    /// The request this result answers.
    public let fetchRequest: NSAsynchronousFetchRequest<ResultType>
    /// The fetched results; nil until the fetch completes, and after a failure or cancellation.
    public internal(set) var finalResult: [ResultType]?

    init(request: NSAsynchronousFetchRequest<ResultType>, context: NSManagedObjectContext, progress: Progress) {
        self.fetchRequest = request
        super.init(context: context, progress: progress)
    }
}

/// Lets the untyped `execute(_:)` start a fetch whose result type it cannot name.
protocol AsynchronousFetchStarting {
    func start(in context: NSManagedObjectContext) throws -> NSPersistentStoreResult
}

extension NSManagedObjectContext {
    /// Starts `request` and returns at once: the rows are read on a background queue, then the
    /// objects are registered and the completion block called on this context's queue.
    func startAsynchronousFetch<T>(_ request: NSAsynchronousFetchRequest<T>) throws -> NSAsynchronousFetchResult<T> {
        // Resolving the request reads only the model, so it need not wait for a busy queue.
        let fetch = try storeFetch(for: request.fetchRequest)
        let progress = Progress(totalUnitCount: 1)
        let result = NSAsynchronousFetchResult(request: request, context: self, progress: progress)
        let handle = UncheckedSendable((result, fetch))
        DispatchQueue.global(qos: .userInitiated).async {
            let (result, fetch) = handle.value
            let rows: [RowSnapshot]?
            do {
                rows = progress.isCancelled ? nil : try self.upstreamRows(fetch)
            } catch {
                result.operationError = error
                rows = nil
            }
            let fetched = UncheckedSendable(rows)
            self.perform { self.completeAsynchronousFetch(result, rows: fetched.value) }
        }
        return result
    }

    private func completeAsynchronousFetch<T>(_ result: NSAsynchronousFetchResult<T>, rows: [RowSnapshot]?) {
        defer { result.fetchRequest.completionBlock?(result) }
        guard let progress = result.progress, !progress.isCancelled else {
            result.operationError = CoreDataError.make(NSUserCancelledError, "The asynchronous fetch was cancelled")
            return
        }
        guard let rows, result.operationError == nil else { return }
        do {
            // Rows were read without this context's unsaved changes; fold them in here.
            let request = result.fetchRequest.fetchRequest
            let objects: [Any]
            if request.resultType == .managedObjectResultType, !hasChanges {
                let rows = FetchedRows(rows)
                objects = rows.indices.map { register(rows, at: $0, asFault: request.returnsObjectsAsFaults, refresh: false) }
            } else {
                objects = try fetch(request)
            }
            result.finalResult = objects as? [T]
            progress.totalUnitCount = Int64(objects.count)
            progress.completedUnitCount = Int64(objects.count)
        } catch {
            result.operationError = error
        }
    }
}
