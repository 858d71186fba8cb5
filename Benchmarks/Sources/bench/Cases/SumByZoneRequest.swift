import CoreData

/// The sum-by-zone request. Until `NSExpressionDescription` and aggregate dictionary fetches
/// land on main, this is the nearest request the library answers: a dictionary fetch of
/// `zone` and `score`, summed per zone in Swift (the report says so).
enum SumByZoneRequest {
    static let usesExpressionDescription = false

    static func make() -> NSFetchRequest<NSDictionary> {
        let request = NSFetchRequest<NSDictionary>(entityName: "Team")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["zone", "score"]
        return request
    }

    /// Runs the request and returns the sum per zone.
    static func sums(_ request: NSFetchRequest<NSDictionary>, in context: NSManagedObjectContext) throws -> [String: Double] {
        var sums: [String: Double] = [:]
        for entry in try context.fetch(request) {
            guard let zone = entry["zone"] as? String else { continue }
            sums[zone, default: 0] += (entry["score"] as? NSNumber)?.doubleValue ?? 0
        }
        return sums
    }
}
