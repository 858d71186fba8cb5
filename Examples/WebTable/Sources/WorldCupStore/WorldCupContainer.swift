import CoreData

/// Opens the World Cup store the way every WebTable process needs it: SQLite at a path,
/// recording persistent history and announcing each commit, seeded with the 32 teams on first use.
public enum WorldCupContainer {
    /// The store used when `--store` is not given: `WebTable.sqlite` in the user's data directory.
    public static var defaultStoreURL: URL {
        NSPersistentContainer.defaultDirectoryURL().appendingPathComponent("WebTable.sqlite")
    }

    /// Opens (creating when needed) the store at `storeURL`.
    ///
    /// History tracking lets a process catch up with saves it did not make, and remote change
    /// notifications tell it when to: the server merges what a second process saved into its
    /// controller's context. Every writer opens the store with both options, so all saves are
    /// recorded.
    ///
    /// - parameter author: the `transactionAuthor` the seed is saved under; the contexts of the
    ///   caller should save under it too, so that readers of the history can tell their own
    ///   saves from others'.
    public static func open(at storeURL: URL, author: String) throws -> NSPersistentContainer {
        guard let model = WorldCupFiles.model else {
            throw WorldCupError("cannot read the model at \(WorldCupFiles.modelURL.path)")
        }
        let container = NSPersistentContainer(name: "WorldCup", managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: storeURL)
        description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        description.setOption(true as NSNumber, forKey: NSPersistentStoreRemoteChangeNotificationPostOptionKey)
        container.persistentStoreDescriptions = [description]
        try FileManager.default.createDirectory(at: storeURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        try seedIfEmpty(container, author: author)
        return container
    }

    /// Inserts the seed's teams into an empty store, in one save.
    ///
    /// The seed's keys are the entity's attribute names, so each record is copied with
    /// key-value coding and a new attribute in the seed needs no code here.
    private static func seedIfEmpty(_ container: NSPersistentContainer, author: String) throws {
        let context = container.newBackgroundContext()
        context.transactionAuthor = author
        try context.performAndWait {
            guard try context.count(for: NSFetchRequest<Team>(entityName: "Team")) == 0 else { return }
            let records = try JSONSerialization.jsonObject(with: Data(contentsOf: WorldCupFiles.seedURL)) as? [[String: Any]]
            guard let records else { throw WorldCupError("the seed \(WorldCupFiles.seedURL.path) is not a list of teams") }
            for record in records {
                let team = Team(context: context)
                for (key, value) in record { team.setValue(value, forKey: key) }
            }
            try context.save()
        }
    }
}
