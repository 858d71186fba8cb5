import Foundation
import Synchronization

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

/// The identifiers of the models a save wrote, by change, for `ModelContext.didSave`.
struct SavedIdentifiers: Sendable {
    var inserted: [PersistentIdentifier] = []
    var updated: [PersistentIdentifier] = []
    var deleted: [PersistentIdentifier] = []

    /// Saves `context` and returns what it saved, read from Core Data's own did-save
    /// notification of object IDs (which the save posts on the thread that saves, before it
    /// returns): the IDs there are permanent already, and the changes are not gathered twice.
    static func saving(_ context: NSManagedObjectContext) throws -> SavedIdentifiers {
        let saved = Mutex(SavedIdentifiers())
        let observation = NotificationCenter.default.addObserver(
            forName: .NSManagedObjectContextDidSaveObjectIDs, object: context, queue: nil
        ) { notification in
            let identifiers = SavedIdentifiers(notification.userInfo)
            saved.withLock { $0 = identifiers }
        }
        defer { NotificationCenter.default.removeObserver(observation) }
        try context.save()
        return saved.withLock { $0 }
    }

    private init() {}

    private init(_ userInfo: [AnyHashable: Any]?) {
        func identifiers(_ key: String) -> [PersistentIdentifier] {
            (userInfo?[key] as? Set<NSManagedObjectID>)?.map(PersistentIdentifier.init) ?? []
        }
        inserted = identifiers(NSInsertedObjectIDsKey)
        updated = identifiers(NSUpdatedObjectIDsKey)
        deleted = identifiers(NSDeletedObjectIDsKey)
    }
}
