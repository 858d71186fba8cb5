import CoreData
import Testing

@MainActor @Suite struct AttributeRoundTripTests {
    @Test(.sqliteOnly("its strings hold U+0000, which PostgreSQL text cannot (README)"))
    func everyAttributeTypeRoundTripsExactlyThroughSQLite() throws {
        let values = AllTypesSample(photoBytes: 1_048_576)
        let directory = TemporaryDirectory()
        let url = directory.file("Types.sqlite")
        do {
            let context = try makeContainer(model: TestModels.allTypes(), storeURL: url).viewContext
            values.set(on: NSEntityDescription.insertNewObject(forEntityName: "Sample", into: context))
            try context.save()
        }
        let context = try makeContainer(model: TestModels.allTypes(), storeURL: url).viewContext
        let sample = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Sample")).first)
        try values.expectRoundTripped(sample)
    }
}

extension AttributeRoundTripTests {
    @Test func decimalsCompareAndSortAsNumbersInSQL() throws {
        let directory = TemporaryDirectory()
        let context = try makeContainer(model: TestModels.allTypes(), storeURL: directory.file("Decimals.sqlite")).viewContext
        for text in ["9.5", "10.25", "100", "-3"] {
            NSEntityDescription.insertNewObject(forEntityName: "Sample", into: context).setValue(Decimal(string: text)!, forKey: "amount")
        }
        try context.save()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Sample")
        request.predicate = NSPredicate(format: "amount > %@", NSDecimalNumber(string: "9.75"))
        request.sortDescriptors = [NSSortDescriptor(key: "amount", ascending: true)]
        request.includesPendingChanges = false
        let amounts = try context.fetch(request).compactMap { $0.value(forKey: "amount") as? Decimal }
        #expect(amounts == [Decimal(string: "10.25")!, Decimal(100)])
    }
}
