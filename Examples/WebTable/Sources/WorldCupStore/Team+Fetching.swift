import CoreData

/// The table's fetch request, and finding a team by name.
extension Team {
    /// The World Cup example's table: sections by qualifying zone; in each zone, most wins first,
    /// ties by name. The zone leads the sort because a controller needs sections in sort order.
    public static func tableRequest() -> NSFetchRequest<Team> {
        let request = NSFetchRequest<Team>(entityName: "Team")
        request.sortDescriptors = [
            NSSortDescriptor(key: "qualifyingZone", ascending: true),
            NSSortDescriptor(key: "wins", ascending: false),
            NSSortDescriptor(key: "teamName", ascending: true),
        ]
        return request
    }

    /// The key path the table's sections are named by.
    public static let sectionKeyPath = "qualifyingZone"

    /// The team with this name, ignoring case, or nil. Call on `context`'s queue.
    public static func named(_ name: String, in context: NSManagedObjectContext) throws -> Team? {
        let request = NSFetchRequest<Team>(entityName: "Team")
        request.predicate = NSPredicate(format: "teamName =[c] %@", name)
        request.fetchLimit = 1
        return try context.fetch(request).first
    }
}
