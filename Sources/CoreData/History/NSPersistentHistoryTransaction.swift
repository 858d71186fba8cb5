/// The changes of one save or batch request, as persistent history recorded them.
public final class NSPersistentHistoryTransaction: NSObject, @unchecked Sendable {
    /// When the transaction was committed.
    public let timestamp: Date
    /// Nil when the request's `resultType` was `.transactionsOnly`.
    public internal(set) var changes: [NSPersistentHistoryChange]?
    /// The identifier of the store the transaction was recorded in.
    public let storeID: String
    /// `Bundle.main.bundleIdentifier`, or the process name when there is none (command-line
    /// programs on Linux have none).
    public let bundleID: String
    /// The writing process's identifier, as a decimal string.
    public let processID: String
    /// The saving context's `name`.
    public let contextName: String?
    /// The saving context's `transactionAuthor`.
    public let author: String?
    /// The transaction's number in its store; it only rises, even after history is deleted.
    public let transactionNumber: Int64

    init(transactionNumber: Int64, storeID: String, timestamp: Date, bundleID: String, processID: String,
         contextName: String?, author: String?) {
        self.transactionNumber = transactionNumber
        self.storeID = storeID
        self.timestamp = timestamp
        self.bundleID = bundleID
        self.processID = processID
        self.contextName = contextName
        self.author = author
        super.init()
    }

    /// The bookmark just after this transaction in its store.
    public var token: NSPersistentHistoryToken {
        NSPersistentHistoryToken(storeTokens: [storeID: transactionNumber])
    }

    /// A did-save notification naming the transaction's objects by ID, for
    /// `mergeChanges(fromContextDidSave:)`.
    ///
    /// For example:
    /// ```swift
    /// for transaction in transactions {
    ///     context.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
    /// }
    /// ```
    /// The notification has no object, so the merging context reads the rows again rather
    /// than trusting its coordinator's cache.
    public func objectIDNotification() -> Notification {
        var ids: [NSPersistentHistoryChangeType: Set<NSManagedObjectID>] = [.insert: [], .update: [], .delete: []]
        for change in changes ?? [] { ids[change.changeType]!.insert(change.changedObjectID) }
        return Notification(name: .NSManagedObjectContextDidSaveObjectIDs, object: nil, userInfo: [
            NSInsertedObjectIDsKey: ids[.insert]!, NSUpdatedObjectIDsKey: ids[.update]!, NSDeletedObjectIDsKey: ids[.delete]!,
        ])
    }

    /// The entity a `fetchHistory(withFetch:)` request names to filter transactions, with the
    /// keys its predicate may use: `author`, `bundleID`, `contextName`, `processID`, `storeID`,
    /// `timestamp`, `token` (`token > %@` with a token), `transactionNumber`.
    public class var entityDescription: NSEntityDescription? { HistoryEntities.transaction }

    /// The same as `entityDescription`; the context is not needed here.
    public class func entityDescription(with context: NSManagedObjectContext) -> NSEntityDescription? { entityDescription }

    /// A fetch request on `entityDescription`; set its predicate and pass it to
    /// `NSPersistentHistoryChangeRequest.fetchHistory(withFetch:)`.
    public class var fetchRequest: NSFetchRequest<NSFetchRequestResult>? { HistoryEntities.fetchRequest(for: HistoryEntities.transaction) }

    /// Number, time, author, context and change count, for logs.
    public override var description: String {
        "<NSPersistentHistoryTransaction \(transactionNumber) \(timestamp) author: \(author ?? "nil") context: \(contextName ?? "nil"), \(changes?.count ?? 0) changes>"
    }
}

/// The keys `entityDescription` lists, for predicates evaluated in memory.
extension NSPersistentHistoryTransaction: KeyValueReadable {
    func readValue(forKey key: String) -> Any? {
        switch key {
        case "author": author
        case "bundleID": bundleID
        case "contextName": contextName
        case "processID": processID
        case "storeID": storeID
        case "timestamp": timestamp
        case "token": token
        case "transactionNumber": transactionNumber
        default: nil
        }
    }
}
