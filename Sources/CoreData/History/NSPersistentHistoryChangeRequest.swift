/// A request to fetch or delete persistent history, executed with
/// `NSManagedObjectContext.execute(_:)` on stores added with `NSPersistentHistoryTrackingKey`.
///
/// For example:
/// ```swift
/// let request = NSPersistentHistoryChangeRequest.fetchHistory(after: lastToken)
/// let result = try context.execute(request) as! NSPersistentHistoryResult
/// for transaction in result.result as! [NSPersistentHistoryTransaction] {
///     viewContext.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
///     lastToken = transaction.token
/// }
/// ```
/// On a store without history tracking, executing throws `NSPersistentStoreUnsupportedRequestTypeError`
/// (134091).
public final class NSPersistentHistoryChangeRequest: NSPersistentStoreRequest, @unchecked Sendable {
    /// Where the request starts (a fetch) or ends (a delete).
    enum Bound {
        case none
        case token(NSPersistentHistoryToken)
        case date(Date)
    }

    let bound: Bound
    /// Whether the request deletes history rather than fetching it.
    let deletes: Bool
    /// What the result holds: a status, IDs, a count, transactions, changes, or both.
    public var resultType: NSPersistentHistoryResultType = .transactionsAndChanges
    /// The token the request was made with, if any.
    public let token: NSPersistentHistoryToken?
    /// A fetch request on `NSPersistentHistoryTransaction.fetchRequest`'s or
    /// `NSPersistentHistoryChange.fetchRequest`'s entity whose predicate filters the transactions
    /// or the changes fetched; its `fetchLimit` and `fetchOffset` count transactions.
    public var fetchRequest: NSFetchRequest<NSFetchRequestResult>?

    init(bound: Bound, deletes: Bool) {
        self.bound = bound
        self.deletes = deletes
        if case .token(let token) = bound { self.token = token } else { self.token = nil }
        super.init()
    }

    /// The transactions after `token` (all of them when it is nil).
    public class func fetchHistory(after token: NSPersistentHistoryToken?) -> Self {
        Self(bound: token.map(Bound.token) ?? .none, deletes: false)
    }

    /// The transactions recorded after `date`.
    public class func fetchHistory(after date: Date) -> Self {
        Self(bound: .date(date), deletes: false)
    }

    /// The transactions after `transaction` (all of them when it is nil).
    public class func fetchHistory(after transaction: NSPersistentHistoryTransaction?) -> Self {
        fetchHistory(after: transaction?.token)
    }

    /// The transactions or changes `fetchRequest`'s predicate selects.
    public class func fetchHistory(withFetch fetchRequest: NSFetchRequest<NSFetchRequestResult>) -> Self {
        let request = Self(bound: .none, deletes: false)
        request.fetchRequest = fetchRequest
        return request
    }

    /// Deletes the transactions before `token`'s, not its own (all of them when it is nil).
    public class func deleteHistory(before token: NSPersistentHistoryToken?) -> Self {
        Self(bound: token.map(Bound.token) ?? .none, deletes: true)
    }

    /// Deletes the transactions recorded before `date`.
    public class func deleteHistory(before date: Date) -> Self {
        Self(bound: .date(date), deletes: true)
    }

    /// Deletes the transactions before `transaction`, not itself (all of them when it is nil).
    public class func deleteHistory(before transaction: NSPersistentHistoryTransaction?) -> Self {
        deleteHistory(before: transaction?.token)
    }

    /// The request's bound within the store `storeID`; nil when it covers none of that store's
    /// history: a delete bounded by a token of other stores only.
    func boundary(in storeID: String) -> HistoryBoundary? {
        switch bound {
        case .none: return .everything
        case .date(let date): return .date(date)
        case .token(let token):
            if let number = token.storeTokens[storeID] { return .transactionNumber(number) }
            return deletes ? nil : .everything
        }
    }
}
