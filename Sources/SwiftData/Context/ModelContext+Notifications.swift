/// The notifications a context posts around each save, and their user-info keys.
extension ModelContext {
    /// Posted before a save; the object is the context.
    public static let willSave = Notification.Name("ModelContextWillSave")
    /// Posted after a save; the user info lists the saved models' identifiers by change.
    public static let didSave = Notification.Name("ModelContextDidSave")

    public enum NotificationKey: String, Sendable {
        case queryGeneration
        case invalidatedIdentifiers
        case insertedIdentifiers
        case updatedIdentifiers
        case deletedIdentifiers
    }
}
