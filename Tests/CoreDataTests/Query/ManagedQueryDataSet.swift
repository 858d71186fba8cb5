import CoreData
import Foundation

/// The rows of a `QueryTestDatabase` made into managed objects the way an app would: inserted
/// into a container's view context (SQLite or in memory), related through `setValue` and
/// `mutableSetValue`, saved, and the context reset so later fetches read the store.
///
/// Keeps the mapping between rows and objects by the rows' primary keys, so a generated
/// predicate's row arguments become objects and fetched objects become rows again.
@MainActor final class ManagedQueryDataSet {
    typealias Row = QueryTestRow

    let container: NSPersistentContainer
    var context: NSManagedObjectContext { container.viewContext }
    private var objectIDs: [Int64: NSManagedObjectID] = [:]
    private var rowKeys: [NSManagedObjectID: Int64] = [:]

    init(_ rows: [String: [Row]], storeType: String, storeURL: URL?) throws {
        container = try makeContainer("QueryDifferential", model: QueryTestDatabase.makeModel(), storeURL: storeURL, type: storeType)
        let context = container.viewContext
        var objects: [Int64: NSManagedObject] = [:]
        for (entity, list) in rows.sorted(by: { $0.key < $1.key }) {
            for row in list { objects[row.primaryKey] = NSEntityDescription.insertNewObject(forEntityName: entity, into: context) }
        }
        for row in rows.values.joined() {
            let object = objects[row.primaryKey]!
            for (key, value) in row.values {
                switch value {
                case let target as Row:
                    object.setValue(objects[target.primaryKey]!, forKey: key)
                case let members as [Row]:
                    // A one-to-many is filled by its to-one inverse; many-to-many from the Person side.
                    if key == "groups" { object.mutableSetValue(forKey: key).addObjects(from: members.map { objects[$0.primaryKey]! }) }
                default:
                    object.setValue(value, forKey: key)
                }
            }
        }
        try context.save()
        for (key, object) in objects { register(object, as: key) }
        context.reset()
    }

    /// Records that `object` (saved, or inserted since) stands for the row with primary key `key`.
    func register(_ object: NSManagedObject, as key: Int64) {
        objectIDs[key] = object.objectID
        rowKeys[object.objectID] = key
    }

    /// The context's object for a row, a fault if it is not loaded yet.
    func object(for row: Row) -> NSManagedObject {
        context.object(with: objectIDs[row.primaryKey]!)
    }

    /// The primary key of the row `object` stands for.
    func rowKey(of object: NSManagedObject) -> Int64? {
        rowKeys[object.objectID]
    }

    /// A generated case's arguments for `NSPredicate(format:argumentArray:)`: rows become objects.
    func arguments(_ args: [Any]) -> [Any] {
        args.map { argument in (argument as? Row).map { object(for: $0) } ?? argument }
    }
}
