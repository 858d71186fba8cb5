import CoreData
import Testing

@MainActor @Suite struct AttributeRoundTripTests {
    @Test func everyAttributeTypeRoundTripsExactlyThroughSQLite() throws {
        ValueTransformer.setValueTransformer(RGBAColourTransformer(), forName: RGBAColourTransformer.name)
        let directory = TemporaryDirectory()
        let url = directory.file("Types.sqlite")
        let when = Date(timeIntervalSinceReferenceDate: 123_456_789.987)
        let amount = Decimal(string: "12345678901234.5678901")!
        let identifier = UUID()
        let photo = Data((0..<1_048_576).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let text = "quote ' and \"double\", percent %, underscore _, NUL \u{0} and é 🙂"
        do {
            let context = try makeContainer(model: TestModels.allTypes(), storeURL: url).viewContext
            let sample = NSEntityDescription.insertNewObject(forEntityName: "Sample", into: context)
            sample.setValue(text, forKey: "text")
            sample.setValue(Int16.min, forKey: "small")
            sample.setValue(Int32.max, forKey: "medium")
            sample.setValue(Int64.max, forKey: "large")
            sample.setValue(Float(1.5), forKey: "single")
            sample.setValue(Double.pi, forKey: "double")
            sample.setValue(true, forKey: "flag")
            sample.setValue(amount, forKey: "amount")
            sample.setValue(when, forKey: "when")
            sample.setValue(URL(string: "https://example.com/a?b=c")!, forKey: "link")
            sample.setValue(identifier, forKey: "identifier")
            sample.setValue(photo, forKey: "photo")
            sample.setValue(RGBAColourBox(RGBAColour(red: 1, green: 2, blue: 3, alpha: 255)), forKey: "colour")
            try context.save()
        }
        let context = try makeContainer(model: TestModels.allTypes(), storeURL: url).viewContext
        let sample = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Sample")).first)
        #expect(sample.value(forKey: "text") as? String == text)
        #expect(sample.value(forKey: "small") as? Int16 == Int16.min)
        #expect(sample.value(forKey: "medium") as? Int32 == Int32.max)
        #expect(sample.value(forKey: "large") as? Int64 == Int64.max)
        #expect(sample.value(forKey: "single") as? Float == 1.5)
        #expect(sample.value(forKey: "double") as? Double == Double.pi)
        #expect(sample.value(forKey: "flag") as? Bool == true)
        #expect(sample.value(forKey: "amount") as? Decimal == amount)
        let stored = try #require(sample.value(forKey: "when") as? Date)
        #expect(abs(stored.timeIntervalSince(when)) < 0.000_001)
        #expect(sample.value(forKey: "link") as? URL == URL(string: "https://example.com/a?b=c"))
        #expect(sample.value(forKey: "identifier") as? UUID == identifier)
        #expect(sample.value(forKey: "photo") as? Data == photo)
        #expect((sample.value(forKey: "colour") as? RGBAColourBox)?.colour == RGBAColour(red: 1, green: 2, blue: 3, alpha: 255))
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
