import CoreData
import Foundation
import Testing

/// `NSBatchInsertRequest` resolves uniqueness constraints with the context's merge policy:
/// object trump updates stored rows and adds only new ones, so re-importing an overlapping feed
/// leaves one row per key.
@Suite struct BatchInsertConstraintTests {
    let directory = TemporaryDirectory()

    func container(_ type: String = NSSQLiteStoreType) throws -> NSPersistentContainer {
        try makeContainer(model: PeopleModel.make(), storeURL: type == NSSQLiteStoreType ? directory.file("People.sqlite") : nil, type: type)
    }

    func insert(_ people: [[String: Any]], into container: NSPersistentContainer, policy: Any) throws -> NSBatchInsertResult? {
        let context = container.newBackgroundContext()
        context.mergePolicy = policy
        let request = NSBatchInsertRequest(entityName: "Person", objects: people)
        request.resultType = .count
        return try context.performAndWait { try context.execute(request) as? NSBatchInsertResult }
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func objectTrumpReimportUpdatesExistingRowsAndAddsNoDuplicates(storeType: String) throws {
        let container = try container(storeType)
        _ = try insert([["name": "Ada", "age": 30, "nickname": "A"], ["name": "Bo", "age": 40]], into: container,
                       policy: NSMergeByPropertyObjectTrumpMergePolicy)
        let result = try insert([["name": "Bo", "age": 41], ["name": "Cy", "age": 50]], into: container,
                                policy: NSMergeByPropertyObjectTrumpMergePolicy)
        #expect(result?.result as? Int == 2)
        #expect(try container.newBackgroundContext().storedPeople() == [
            PersonRecord(name: "Ada", age: 30, nickname: "A", pets: []),
            PersonRecord(name: "Bo", age: 41, nickname: nil, pets: []),
            PersonRecord(name: "Cy", age: 50, nickname: nil, pets: []),
        ])
    }

    @Test func objectTrumpKeepsStoredValuesTheRequestDoesNotName() throws {
        let container = try container()
        _ = try insert([["name": "Ada", "age": 30, "nickname": "A"]], into: container, policy: NSMergeByPropertyObjectTrumpMergePolicy)
        _ = try insert([["name": "Ada", "age": 31]], into: container, policy: NSMergeByPropertyObjectTrumpMergePolicy)
        #expect(try container.newBackgroundContext().storedPeople() == [PersonRecord(name: "Ada", age: 31, nickname: "A", pets: [])])
    }

    @Test func duplicatesWithinOneRequestLeaveOneRowWithTheLaterValues() throws {
        let container = try container()
        _ = try insert([["name": "Ada", "age": 1], ["name": "Ada", "age": 2], ["name": "Bo", "age": 3]], into: container,
                       policy: NSMergeByPropertyObjectTrumpMergePolicy)
        #expect(try container.newBackgroundContext().storedPeople().map { "\($0.name ?? "nil") \($0.age)" } == ["Ada 2", "Bo 3"])
    }

    @Test func storeTrumpKeepsStoredRowsAndAddsOnlyNewOnes() throws {
        let container = try container()
        _ = try insert([["name": "Ada", "age": 30]], into: container, policy: NSMergeByPropertyStoreTrumpMergePolicy)
        _ = try insert([["name": "Ada", "age": 99], ["name": "Bo", "age": 40]], into: container, policy: NSMergeByPropertyStoreTrumpMergePolicy)
        #expect(try container.newBackgroundContext().storedPeople().map { "\($0.name ?? "nil") \($0.age)" } == ["Ada 30", "Bo 40"])
    }

    @Test func errorPolicyThrows133021AndWritesNothing() throws {
        let container = try container()
        _ = try insert([["name": "Ada", "age": 30]], into: container, policy: NSErrorMergePolicy)
        let error = #expect(throws: NSError.self) {
            try insert([["name": "Bo", "age": 40], ["name": "Ada", "age": 31]], into: container, policy: NSErrorMergePolicy)
        }
        #expect(error?.code == NSManagedObjectConstraintMergeError)
        let conflicts = error?.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSConstraintConflict]
        #expect(conflicts?.map(\.constraint) == [["name"]])
        #expect(try container.newBackgroundContext().storedPeople().map(\.name) == ["Ada"])
    }

    @Test func compoundConstraintsUpsertOnTheWholeTuple() throws {
        let container = try container()
        let context = container.newBackgroundContext()
        context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        func run(_ badges: [[String: Any]]) throws {
            try context.performAndWait { _ = try context.execute(NSBatchInsertRequest(entityName: "Badge", objects: badges)) }
        }
        try run([["group": "a", "number": 1, "label": "one"], ["group": "b", "number": 1, "label": "uno"]])
        try run([["group": "a", "number": 1, "label": "ONE"], ["group": "a", "number": 2, "label": "two"]])
        let labels = try context.performAndWait {
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Badge")).compactMap { $0.value(forKey: "label") as? String }.sorted()
        }
        #expect(labels == ["ONE", "two", "uno"])
    }

    @Test func nilConstrainedValuesNeverConflictInABatchInsert() throws {
        let container = try container()
        _ = try insert([["age": 1], ["age": 2]], into: container, policy: NSErrorMergePolicy)
        _ = try insert([["age": 3]], into: container, policy: NSErrorMergePolicy)
        #expect(try container.newBackgroundContext().storedPeople().count == 3)
    }

    @Test func entityInitialisersNameTheEntity() throws {
        let container = try container()
        let entity = try #require(container.managedObjectModel.entitiesByName["Person"])
        var remaining = ["Ada", "Bo"]
        let requests = [
            NSBatchInsertRequest(entity: entity, objects: [["name": "Cy"]]),
            NSBatchInsertRequest(entity: entity, dictionaryHandler: { dictionary in
                guard let name = remaining.popLast() else { return true }
                dictionary["name"] = name
                return false
            }),
            NSBatchInsertRequest(entity: entity, managedObjectHandler: { person in
                guard person.entity.name == "Person", remaining.isEmpty else { return true }
                remaining = ["done"]
                person.setValue("Dee", forKey: "name")
                return false
            }),
        ]
        #expect(requests.allSatisfy { $0.entityName == "Person" && $0.entity === entity })
        let context = container.newBackgroundContext()
        try context.performAndWait { for request in requests { _ = try context.execute(request) } }
        #expect(try context.storedPeople().map(\.name) == ["Ada", "Bo", "Cy", "Dee"])
    }
}
