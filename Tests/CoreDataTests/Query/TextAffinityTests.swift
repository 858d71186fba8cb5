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
        request.predicate = NSPredicate(format: "code IN %@", [1, 2.5, 7] as [Any])
        request.sortDescriptors = [NSSortDescriptor(key: "code", ascending: true)]
        #expect(try context.fetch(request).map { $0.value(forKey: "code") as? String } == ["1", "2.5"])

        request.predicate = NSPredicate(format: "code IN {2, 3}")
        #expect(try context.fetch(request).map { $0.value(forKey: "code") as? String } == ["2"])

        // A number attribute still never equals a string.
        request.predicate = NSPredicate(format: "weight IN {'10', 20}")
        #expect(try context.fetch(request).map { $0.value(forKey: "weight") as? Int } == [20])
    }

    @Test func evaluationAgreesWithTheFetch() {
        let predicate = NSPredicate(format: "code IN %@", [1, 2.5] as [Any])
        #expect(predicate.evaluate(with: ["code": "1"]))
        #expect(predicate.evaluate(with: ["code": "2.5"]))
        #expect(!predicate.evaluate(with: ["code": "01"]))
        #expect(!predicate.evaluate(with: ["code": "1.0"]))
    }
}
