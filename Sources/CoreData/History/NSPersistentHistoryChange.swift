/// One object's change within a history transaction.
public final class NSPersistentHistoryChange: NSObject, @unchecked Sendable {
    /// The change's number in the store, increasing with each recorded change.
    public let changeID: Int64
    /// The object that changed; for a delete, the ID it had.
    public let changedObjectID: NSManagedObjectID
    /// Whether the object was inserted, updated or deleted.
    public let changeType: NSPersistentHistoryChangeType
    /// For a delete, the values of the attributes marked `preservesValueInHistoryOnDeletion`;
    /// nil otherwise.
    public let tombstone: [AnyHashable: Any]?
    /// For an update, the attributes and relationships it changed; nil otherwise.
    public let updatedProperties: Set<NSPropertyDescription>?
    /// Held weakly, as the transaction holds its changes: keep the transaction or the
    /// `NSPersistentHistoryResult` that returned this change to keep it.
    public internal(set) weak var transaction: NSPersistentHistoryTransaction?

    init(changeID: Int64, changedObjectID: NSManagedObjectID, changeType: NSPersistentHistoryChangeType,
         tombstone: [AnyHashable: Any]?, updatedProperties: Set<NSPropertyDescription>?) {
        self.changeID = changeID
        self.changedObjectID = changedObjectID
        self.changeType = changeType
        self.tombstone = tombstone
        self.updatedProperties = updatedProperties
        super.init()
    }

    /// The entity a `fetchHistory(withFetch:)` request names to filter changes, with the keys
    /// its predicate may use: `changeID`, `changeType`, `changedEntity` (an `NSEntityDescription`),
    /// `changedObjectID`, `transactionNumber`.
    public class var entityDescription: NSEntityDescription? { HistoryEntities.change }

    /// The same as `entityDescription`; the context is not needed here.
    public class func entityDescription(with context: NSManagedObjectContext) -> NSEntityDescription? { entityDescription }

    /// A fetch request on `entityDescription`; set its predicate and pass it to
    /// `NSPersistentHistoryChangeRequest.fetchHistory(withFetch:)`.
    public class var fetchRequest: NSFetchRequest<NSFetchRequestResult>? { HistoryEntities.fetchRequest(for: HistoryEntities.change) }

    /// The change number, type and object ID, for logs.
    public override var description: String {
        "<NSPersistentHistoryChange \(changeID) \(changeType) \(changedObjectID)>"
    }
}

/// The keys `entityDescription` lists, for predicates evaluated in memory.
extension NSPersistentHistoryChange: KeyValueReadable {
    func readValue(forKey key: String) -> Any? {
        switch key {
        case "changeID": changeID
        case "changeType": changeType.rawValue
        case "changedEntity": changedObjectID.entity
        case "changedObjectID": changedObjectID
        case "transactionNumber": transaction?.transactionNumber
        default: nil
        }
    }
}
