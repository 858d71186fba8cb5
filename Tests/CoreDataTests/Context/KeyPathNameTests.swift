@testable import CoreData
import Testing

@Suite struct KeyPathNameTests {
    @Test func swiftKeyPathsNameTheirModelProperties() throws {
        let container = try makeContainer(model: TestModels.dogWalk(), storeURL: nil, type: NSInMemoryStoreType)
        defer { withExtendedLifetime(container) {} }
        #expect(NSManagedObject.propertyName(for: \Dog.name) == "name")
        #expect(NSManagedObject.propertyName(for: \Walk.date) == "date")
        #expect(NSManagedObject.propertyName(for: \Walk.dog?.name) == "dog.name")
    }
}
