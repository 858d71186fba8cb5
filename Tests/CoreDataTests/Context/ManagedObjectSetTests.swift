@testable import CoreData
import Foundation
import Testing

/// `ManagedObjectSet`, the context's change-tracking set: members by identity, as
/// `Set<NSManagedObject>` held them.
@Suite struct ManagedObjectSetTests {
    let entity: NSEntityDescription = PeopleModel.make().entitiesByName["Person"]!

    func makeObjects(_ count: Int) -> [NSManagedObject] {
        (0..<count).map { _ in NSManagedObject(entity: entity, insertInto: nil) }
    }

    @Test func insertingAMemberAgainChangesNothing() {
        let objects = makeObjects(2)
        var set = ManagedObjectSet()
        let first = set.insert(objects[0])
        let again = set.insert(objects[0])
        let second = set.insert(objects[1])
        #expect(first && !again && second)
        #expect(set.count == 2)
        #expect(set.contains(objects[0]) && set.contains(objects[1]))
    }

    @Test func removingReturnsTheMemberOnce() {
        let objects = makeObjects(2)
        var set = ManagedObjectSet(objects)
        let removed = set.remove(objects[0])
        let removedAgain = set.remove(objects[0])
        #expect(removed === objects[0])
        #expect(removedAgain == nil)
        #expect(!set.contains(objects[0]))
        #expect(set.count == 1)
        set.remove(objects[1])
        #expect(set.isEmpty)
    }

    @Test func theLastInsertedMemberRemovedAndInsertedAgainIsAMemberAgain() {
        let objects = makeObjects(2)
        var set = ManagedObjectSet()
        set.insert(objects[0])
        set.remove(objects[0])
        let reinserted = set.insert(objects[0])
        #expect(reinserted && set.contains(objects[0]) && set.count == 1)
        // Filtered out, then inserted into the filtered set: a member again.
        var filtered = set.filter { _ in false }
        let intoFiltered = filtered.insert(objects[0])
        #expect(intoFiltered && filtered.count == 1)
        // A union keeps the last inserted member, which is still a member of it.
        set.insert(objects[1])
        var union = set.union(ManagedObjectSet())
        let intoUnion = union.insert(objects[1])
        #expect(!intoUnion && union.count == 2)
    }

    @Test func setAlgebraKeepsIdentity() {
        let objects = makeObjects(4)
        let first = ManagedObjectSet(objects[0..<3])
        let second = ManagedObjectSet(objects[2...])
        #expect(first.union(second).objects == Set(objects))
        #expect(first.subtracting(second).objects == Set(objects[0..<2]))
        #expect(first.filter { $0 === objects[1] }.objects == [objects[1]])
        #expect(Set(first.map(ObjectIdentifier.init)) == Set(objects[0..<3].map(ObjectIdentifier.init)))
    }
}
