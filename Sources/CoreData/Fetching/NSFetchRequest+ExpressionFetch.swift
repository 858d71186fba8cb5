import Foundation

extension NSFetchRequest: ExpressionFetchRequest {
    func expressionResults(in context: Any?, countOnly: Bool) throws -> Any {
        guard let context = context as? NSManagedObjectContext else {
            throw PredicateError.semantic("FETCH needs a managed object context as its second argument")
        }
        return countOnly ? NSNumber(value: try context.count(for: self)) : try context.fetch(self) as [Any]
    }
}
