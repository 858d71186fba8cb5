/// What executing an `NSPersistentHistoryChangeRequest` returns: `result` in the form the
/// request's `resultType` names.
public final class NSPersistentHistoryResult: NSPersistentStoreResult, @unchecked Sendable {
    /// The history in the form `resultType` names (see ``NSPersistentHistoryResultType``).
    public let result: Any?
    /// The form the request asked for.
    public let resultType: NSPersistentHistoryResultType
    /// Keeps the transactions of a `.changesOnly` result alive, as each change names its
    /// transaction weakly.
    private let transactions: [NSPersistentHistoryTransaction]

    init(result: Any?, resultType: NSPersistentHistoryResultType, transactions: [NSPersistentHistoryTransaction] = []) {
        self.result = result
        self.resultType = resultType
        self.transactions = transactions
    }
}
