#if canImport(CoreDataPostgreSQL)
import CoreDataPostgreSQL

/// The World Cup's model in code: teams in qualifying zones, with wins, and players (a to-many
/// relationship), for the PostgreSQL suites.
enum TeamModel {
    /// `uniqueNames`: team names carry a uniqueness constraint.
    static func make(uniqueNames: Bool = false) -> NSManagedObjectModel {
        let team = NSEntityDescription()
        team.name = "Team"
        let player = NSEntityDescription()
        player.name = "Player"
        let name = NSAttributeDescription()
        name.name = "teamName"
        name.attributeType = .stringAttributeType
        let zone = NSAttributeDescription()
        zone.name = "qualifyingZone"
        zone.attributeType = .stringAttributeType
        let wins = NSAttributeDescription()
        wins.name = "wins"
        wins.attributeType = .integer64AttributeType
        wins.defaultValue = 0
        let founded = NSAttributeDescription()
        founded.name = "founded"
        founded.attributeType = .dateAttributeType
        founded.isOptional = true
        let playerName = NSAttributeDescription()
        playerName.name = "name"
        playerName.attributeType = .stringAttributeType
        let players = NSRelationshipDescription()
        players.name = "players"
        players.destinationEntity = player
        players.maxCount = 0
        players.deleteRule = .cascadeDeleteRule
        let teamOfPlayer = NSRelationshipDescription()
        teamOfPlayer.name = "team"
        teamOfPlayer.destinationEntity = team
        teamOfPlayer.maxCount = 1
        teamOfPlayer.isOptional = true
        players.inverseRelationship = teamOfPlayer
        teamOfPlayer.inverseRelationship = players
        team.properties = [name, zone, wins, founded, players]
        if uniqueNames { team.uniquenessConstraints = [["teamName"]] }
        player.properties = [playerName, teamOfPlayer]
        let model = NSManagedObjectModel()
        model.entities = [team, player]
        return model
    }

    /// A container on a fresh schema of the test server, with the options given.
    static func container(url: URL? = nil, options: [String: Any] = [:], uniqueNames: Bool = false) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Teams", managedObjectModel: make(uniqueNames: uniqueNames))
        let description = NSPersistentStoreDescription(url: try url ?? PostgreSQLTestServer.freshStoreURL())
        description.type = NSPostgreSQLStoreType
        for (key, value) in options { description.setOption(value as? NSObject, forKey: key) }
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    @discardableResult
    static func insertTeam(_ name: String, zone: String, wins: Int64, into context: NSManagedObjectContext) -> NSManagedObject {
        let team = NSEntityDescription.insertNewObject(forEntityName: "Team", into: context)
        team.setValue(name, forKey: "teamName")
        team.setValue(zone, forKey: "qualifyingZone")
        team.setValue(wins, forKey: "wins")
        return team
    }
}
#endif
