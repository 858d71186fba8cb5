import CoreData
import Foundation
import Testing

/// A string attribute compared with `IN` a list of numbers matches the numbers' text, as
/// SQLite's TEXT affinity makes it match on Apple platforms; the fetch, the in-memory store and
/// `evaluate(with:)` agree.
@Suite struct TextAffinityTests {
    let directory = TemporaryDirectory()

    static func model() -> NSManagedObjectModel {
        NSManagedObjectModel(entities: [
            NSEntityDescription(name: "Parcel", properties: [
                NSAttributeDescription(name: "code", type: .stringAttributeType),
                NSAttributeDescription(name: "weight", type: .integer64AttributeType),
            ]),
        ])
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func aStringAttributeInAListOfNumbersMatchesTheirText(storeType: String) throws {
        let context = try makeContainer(model: Self.model(), storeURL: directory.file("Parcels.sqlite"), type: storeType).viewContext
        for (code, weight) in [("1", 10), ("2", 20), ("2.5", 30), ("x", 40), ("01", 50)] {
            let parcel = NSEntityDescription.insertNewObject(forEntityName: "Parcel", into: context)
            parcel.setValue(code, forKey: "code")
            parcel.setValue(weight, forKey: "weight")
        }
        try context.save()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Parcel")
        request.sortDescriptors = [NSSortDescriptor(key: "code", ascending: true)]
        request.predicate = NSPredicate(format: "code IN {2, 3}")
        #expect(try context.fetch(request).map { $0.value(forKey: "code") as? String } == ["2"])

        // A number attribute still never equals a string.
        request.predicate = NSPredicate(format: "weight IN {'10', 20}")
        #expect(try context.fetch(request).map { $0.value(forKey: "weight") as? Int } == [20])
    }

    /// Numbers in an argument array keep their kind: `[1, 2.5]` is two doubles, whose text
    /// (SQLite's `%!.15g`) is `1.0` and `2.5`.
    @Test func evaluationMatchesTheTextOfEachListedNumber() {
        let predicate = NSPredicate(format: "code IN %@", [1, 2.5, 7])
        #expect(predicate.evaluate(with: ["code": "2.5"]))
        #expect(predicate.evaluate(with: ["code": "1.0"]))
        #expect(!predicate.evaluate(with: ["code": "1"]))
        #expect(!predicate.evaluate(with: ["code": "01"]))
    }
}
