import SwiftData

/// A national team, written as a SwiftData model: the entity `Team` in table `ZTEAM`, as the
/// Core Data example's, with each name unique.
@Model
final class Team {
    #Unique<Team>([\.teamName])

    var teamName: String
    var qualifyingZone: String
    var imageName: String
    var wins: Int

    init(teamName: String, qualifyingZone: String, imageName: String, wins: Int = 0) {
        self.teamName = teamName
        self.qualifyingZone = qualifyingZone
        self.imageName = imageName
        self.wins = wins
    }
}
