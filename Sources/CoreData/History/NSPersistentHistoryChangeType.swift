/// What a history change did to its object; Apple's raw values.
public enum NSPersistentHistoryChangeType: Int, Sendable {
    /// The object was inserted.
    case insert = 0
    /// Properties of the object changed (see `updatedProperties`).
    case update = 1
    /// The object was deleted (see `tombstone`).
    case delete = 2
}
