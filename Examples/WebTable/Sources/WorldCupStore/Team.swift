import CoreData

/// A national team of the World Cup model (`Examples/WorldCup/Model/WorldCup.xcdatamodeld`).
public final class Team: NSManagedObject {
    @Managed public var teamName: String?
    @Managed public var qualifyingZone: String?
    @Managed public var imageName: String?
    @Managed public var wins: Int32
}
