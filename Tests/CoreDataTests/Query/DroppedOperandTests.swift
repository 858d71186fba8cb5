import CoreData
import Foundation
import Testing

/// Found by `ContextDifferentialTests`: a comparison the SQL compiler knows can never hold (an
/// unsaved object, or values of different kinds) compiles to `0` and drops its operand's bound
/// value. When that value was the statement's last, SQLite refused it (SQLITE_RANGE) and the
/// fetch threw "SQLite error 25" where the in-memory store returns no objects.
@MainActor @Suite struct DroppedOperandTests {
    let directory = TemporaryDirectory()

    func context(_ storeType: String) throws -> NSManagedObjectContext {
        let container = try makeContainer(model: QueryTestDatabase.makeModel(), storeURL: storeType == NSSQLiteStoreType ? directory.file("Dropped.sqlite") : nil, type: storeType)
        let context = container.viewContext
        for (serial, name) in ["Ann", "Bob"].enumerated() {
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            person.setValue(name, forKey: "name")
            person.setValue(serial, forKey: "serial")
            person.setValue(30 + serial, forKey: "age")
        }
        try context.save()
        context.reset()
        return context
    }

    func names(_ context: NSManagedObjectContext, _ predicate: NSPredicate) throws -> [String] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.predicate = predicate
        request.sortDescriptors = [NSSortDescriptor(key: "serial", ascending: true)]
        let names = try context.fetch(request).map { $0.value(forKey: "name") as? String ?? "nil" }
        #expect(try context.count(for: request) == names.count, "\(predicate.canonicalFormat)")
        return names
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func comparisonsThatCanNeverHoldSelectNothing(storeType: String) throws {
        let context = try context(storeType)
        for format in ["name == 5", "age == 'thirty'", "age < 'x'", "name BEGINSWITH 3", "age IN {'a'}", "ANY items.price == 'x'"] {
            #expect(try names(context, NSPredicate(format: format)) == [], "\(format)")
        }
        #expect(try names(context, NSPredicate(format: "age == 'thirty' OR name == 'Bob'")) == ["Bob"])
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func anUnsavedObjectAsArgumentMatchesOnlyWhatTheContextRelatesToIt(storeType: String) throws {
        let context = try context(storeType)
        let city = NSEntityDescription.insertNewObject(forEntityName: "City", into: context)
        city.setValue("Zürich", forKey: "name")
        #expect(try names(context, NSPredicate(format: "home == %@", city)) == [])
        #expect(try names(context, NSPredicate(format: "age > 30 OR home == %@", city)) == ["Bob"])
        let ann = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")).first { $0.value(forKey: "name") as? String == "Ann" })
        ann.setValue(city, forKey: "home")
        #expect(try names(context, NSPredicate(format: "home == %@", city)) == ["Ann"])
    }
}
