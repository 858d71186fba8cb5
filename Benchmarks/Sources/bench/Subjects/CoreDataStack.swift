import CoreData

/// The Team entity as an app would declare it.
final class Team: NSManagedObject {
    @Managed var name: String?
    @Managed var zone: String?
    @Managed var wins: Int32
    @Managed var score: Double
    @Managed var date: Date?
}

/// Containers over one shared model, each on its own store file.
enum CoreDataStack {
    static let model = NSManagedObjectModel(entities: [
        NSEntityDescription(name: "Team", className: "Team", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSAttributeDescription(name: "zone", type: .stringAttributeType),
            NSAttributeDescription(name: "wins", type: .integer32AttributeType, optional: false, defaultValue: 0),
            NSAttributeDescription(name: "score", type: .doubleAttributeType, optional: false, defaultValue: 0),
            NSAttributeDescription(name: "date", type: .dateAttributeType),
        ]),
    ])

    /// Persistent history tracking and remote change notifications, as a store description's options.
    static var historyOptions: [String: NSObject] {
        [NSPersistentHistoryTrackingKey: true as NSNumber, NSPersistentStoreRemoteChangeNotificationPostOptionKey: true as NSNumber]
    }

    /// A loaded container whose only store is at `url` (created if missing): a SQLite file, or
    /// a PostgreSQL schema with `type` `NSPostgreSQLStoreType`.
    static func container(at url: URL, type: String = NSSQLiteStoreType, model: NSManagedObjectModel = model,
                          options: [String: NSObject] = [:]) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Bench", managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: url)
        description.type = type
        for (key, value) in options { description.setOption(value, forKey: key) }
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    /// A fresh main-queue context on the container's coordinator. The benchmark runs on the
    /// main thread, so its work runs inline, as an app's view context does.
    static func context(_ container: NSPersistentContainer) -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = container.persistentStoreCoordinator
        return context
    }

    /// Inserts teams `indexes` of `data` into `context` through the `@Managed` accessors, as an
    /// app would; the caller saves.
    static func insertTeams(_ indexes: Range<Int>, of data: TeamData, into context: NSManagedObjectContext) {
        for index in indexes {
            let team = Team(context: context)
            team.name = data.names[index]
            team.zone = data.zone(index)
            team.wins = data.wins[index]
            team.score = data.scores[index]
            team.date = data.date(index)
        }
    }

    static func teamRequest() -> NSFetchRequest<Team> {
        NSFetchRequest<Team>(entityName: "Team")
    }

    static var filteredPredicate: NSPredicate {
        NSPredicate(format: TeamSQL.predicateFormat, TeamSQL.winsThreshold, TeamSQL.excludedZone)
    }
}

/// Runs the blocks the library queued on the main queue (`processPendingChanges` at "the end
/// of the event"), untimed, between repetitions.
func drainMainQueue() {
    for _ in 0..<3 { _ = RunLoop.main.run(mode: .default, before: Date()) }
}
