import CoreData
import Foundation
import Testing

/// Swift computed properties marked `@KeyValueCoded`, and the primitive accessors of `@Managed`,
/// seen through key-value coding as Apple's `@objc` properties are.
@Suite struct KeyValueCodedPropertyTests {
    let container: NSPersistentContainer
    var context: NSManagedObjectContext { container.viewContext }

    init() throws {
        container = try ShelfModel.container()
    }

    func book(_ title: String?, month: Int = 1) -> ShelfBook {
        let book = ShelfBook(context: context)
        book.title = title
        book.timeStamp = ShelfModel.date(month: month)
        return book
    }

    @Test func computedPropertyIsReadByValueForKey() {
        let dune = book("dune")
        #expect(dune.value(forKey: "firstInitial") as? String == "D")
        #expect(dune.value(forKeyPath: "firstInitial") as? String == "D")
    }

    @Test func privateComputedPropertyInAnExtensionIsReadByValueForKey() {
        #expect(book("dune").value(forKey: "titleLength") as? Int == 4)
    }

    @Test func swiftGetterReplacesTransientAttribute() {
        let dune = book("dune", month: 3)
        #expect(dune.value(forKey: "sectionIdentifier") as? String == "2024003")
        dune.timeStamp = ShelfModel.date(month: 11)
        #expect(dune.value(forKey: "sectionIdentifier") as? String == "2024011")
    }

    @Test func settableComputedPropertyIsSetBySetValue() throws {
        let dune = book("dune")
        dune.setValue("EMMA", forKey: "shoutedTitle")
        #expect(dune.title == "emma")
        #expect(dune.value(forKey: "shoutedTitle") as? String == "EMMA")
        try context.save()
    }

    @Test func settingReadOnlyComputedPropertyMakesSaveThrow() {
        let dune = book("dune")
        dune.setValue("X", forKey: "firstInitial")
        #expect(dune.value(forKey: "firstInitial") as? String == "D")
        #expect(throws: NSError.self) { try context.save() }
    }

    @Test func computedPropertyIsUsedByPredicatesEvaluatedInMemory() {
        let books = [book("dune"), book("emma"), book("dracula")]
        let predicate = NSPredicate(format: "firstInitial == %@ AND titleLength > 4", "D")
        #expect(books.filter { predicate.evaluate(with: $0) }.map(\.title) == ["dracula"])
        let filtered = (books as NSArray).filtered(using: NSPredicate(format: "firstInitial BEGINSWITH %@", "E"))
        #expect(filtered.map { ($0 as? ShelfBook)?.title } == ["emma"])
    }

    @Test func computedPropertyIsUsedBySortDescriptorsInMemory() {
        let books = [book("emma"), book("dune"), book("anna"), book("dracula")]
        let sorted = (books as NSArray).sortedArray(using: [
            NSSortDescriptor(key: "firstInitial", ascending: false),
            NSSortDescriptor(key: "titleLength", ascending: true),
        ])
        #expect(sorted.map { ($0 as? ShelfBook)?.title } == ["emma", "dune", "dracula", "anna"])
    }

    @Test func primitiveAccessorReadsAndWritesWithoutRecordingAChange() throws {
        let dune = book("dune")
        try context.save()
        let stamp = ShelfModel.date(month: 6)
        dune.touch(at: stamp)
        #expect(dune.updatedAt == stamp)
        #expect(dune.value(forKey: "updatedAt") as? Date == stamp)
        #expect(!dune.hasChanges)
        #expect(dune.changedValues().isEmpty)
    }

    @Test func primitiveAccessorIsNotAKeyOfItsOwn() {
        let dune = book("dune")
        dune.touch(at: ShelfModel.date(month: 6))
        #expect(dune.entity.propertiesByName["primitiveUpdatedAt"] == nil)
        #expect(dune.value(forKey: "primitiveUpdatedAt") == nil)
        #expect(dune.primitiveValue(forKey: "updatedAt") as? Date == ShelfModel.date(month: 6))
    }
}
