import CoreData

/// The sum-by-zone request, as an app writes it for Core Data: a dictionary-result fetch whose
/// properties are the zone and an `NSExpressionDescription` for `sum:(score)`, grouped by zone.
enum SumByZoneRequest {
    static let usesExpressionDescription = true

    static func make() -> NSFetchRequest<NSDictionary> {
        let total = NSExpressionDescription()
        total.name = "total"
        total.expression = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "score")])
        total.expressionResultType = .doubleAttributeType
        let request = NSFetchRequest<NSDictionary>(entityName: "Team")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["zone", total]
        request.propertiesToGroupBy = ["zone"]
        return request
    }

    /// Runs the request and returns the sum per zone.
    static func sums(_ request: NSFetchRequest<NSDictionary>, in context: NSManagedObjectContext) throws -> [String: Double] {
        var sums: [String: Double] = [:]
        for entry in try context.fetch(request) {
            guard let zone = entry["zone"] as? String else { continue }
            sums[zone] = (entry["total"] as? NSNumber)?.doubleValue ?? 0
        }
        return sums
    }
}
