/// What a history change did to its object; Apple's raw values.
public enum NSPersistentHistoryChangeType: Int, Sendable {
    case insert = 0
    case update = 1
    case delete = 2
}
