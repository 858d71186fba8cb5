import CoreData
import Foundation
import Testing

/// Two loads of one model compare equal with `==` and `isEqual`, as on Apple platforms; models
/// that differ do not.
@Suite struct ModelEqualityTests {
    @Test func twoLoadsOfTheSameModelFileAreEqual() throws {
        let url = try ModelFiles.fixture("Fixture.xcdatamodeld")
        let first = try #require(NSManagedObjectModel(contentsOf: url))
        let second = try #require(NSManagedObjectModel(contentsOf: url))
        #expect(first !== second)
        #expect(first == second)
        #expect(first.isEqual(second))
        #expect(first.hash == second.hash)
        #expect(Set([first, second]).count == 1)
    }

    @Test func twoBuildsOfTheSameModelInCodeAreEqual() {
        #expect(PeopleModel.make() == PeopleModel.make())
    }

    @Test func modelsThatDifferAreNotEqual() {
        let changed = PeopleModel.make()
        changed.entitiesByName["Person"]?.properties.first { $0.name == "age" }?.isOptional = false
        #expect(PeopleModel.make() != changed)
        #expect(!PeopleModel.make().isEqual(TestModels.dogWalk()))
        #expect(!PeopleModel.make().isEqual("Person"))
    }
}
