import CoreData
import Foundation
import Testing

/// `changedValues()` of a new object reports every value it holds, those `awakeFromInsert()`
/// set through primitive accessors included, as on Apple platforms.
@Suite struct InsertedChangedValuesTests {
    let directory = TemporaryDirectory()

    @Test func aNewObjectsChangedValuesIncludePrimitivelySetValues() throws {
        let container = try LedgerModel.container(in: directory)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let entry = LedgerEntry(context: context)
            entry.title = "Lunch"
            let changed = entry.changedValues()
            #expect(changed["createdBy"] as? String == "awakeFromInsert")
            #expect(changed["title"] as? String == "Lunch")
            #expect(changed["note"] == nil, "transient properties are not reported")
            try context.save()
            #expect(entry.changedValues().isEmpty)
            entry.amount = 12
            #expect(Set(entry.changedValues().keys) == ["amount"], "a stored object reports its changes only")
        }
    }
}
