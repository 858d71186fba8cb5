/// What `NSPersistentHistoryChangeRequest` returns in `NSPersistentHistoryResult.result`; Apple's
/// raw values.
public enum NSPersistentHistoryResultType: Int, Sendable {
    /// `true`.
    case statusOnly = 0
    /// The changed objects' IDs, one per change, oldest first.
    case objectIDs = 1
    /// The number of transactions fetched or deleted.
    case count = 2
    /// `[NSPersistentHistoryTransaction]` whose `changes` are nil.
    case transactionsOnly = 3
    /// `[NSPersistentHistoryChange]`, oldest first.
    case changesOnly = 4
    /// `[NSPersistentHistoryTransaction]` with their changes.
    case transactionsAndChanges = 5
}
