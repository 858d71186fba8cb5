import CoreData

/// A national team in the chapter's model.
final class Team: NSManagedObject {
    @Managed var teamName: String?
    @Managed var qualifyingZone: String?
    @Managed var imageName: String?
    @Managed var wins: Int32
}
