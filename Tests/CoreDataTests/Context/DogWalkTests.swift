import CoreData
import Testing

@MainActor @Suite struct DogWalkTests {
    let directory = TemporaryDirectory()

    func container() throws -> NSPersistentContainer {
        try makeContainer(model: TestModels.dogWalk(), storeURL: directory.file("DogWalk.sqlite"))
    }

    @Test func walksKeepTheirOrderAndInverseAcrossRelaunch() throws {
        let start = Date(timeIntervalSinceReferenceDate: 700_000_000.123)
        do {
            let context = try container().viewContext
            let dog = Dog(context: context)
            dog.name = "Fido"
            for offset in 0..<3 {
                let walk = Walk(context: context)
                walk.date = start.addingTimeInterval(Double(offset) * 60)
                dog.mutableOrderedSetValue(forKey: "walks").add(walk)
                #expect(walk.dog === dog, "inverse is set at once, before save")
            }
            // Insert at the front through a copy, the way the book's add(_:) does.
            let early = Walk(context: context)
            early.date = start.addingTimeInterval(-60)
            let walks = dog.walks!.mutableCopy() as! NSMutableOrderedSet
            walks.insert(early, at: 0)
            dog.walks = walks
            #expect(early.dog === dog)
            try context.save()
        }
        let context = try container().viewContext
        let dogs = try context.fetch(NSFetchRequest<Dog>(entityName: "Dog"))
        #expect(dogs.count == 1)
        let walks = try #require(dogs.first?.walks?.array as? [Walk])
        #expect(walks.map { $0.date!.timeIntervalSinceReferenceDate } == [-60, 0, 60, 120].map { start.timeIntervalSinceReferenceDate + $0 })
        #expect(walks.allSatisfy { $0.dog === dogs.first })
    }

    @Test func deletingAWalkRemovesItFromItsDog() throws {
        let context = try container().viewContext
        let dog = Dog(context: context)
        let walk = Walk(context: context)
        walk.dog = dog
        #expect(dog.walks?.count == 1, "setting the to-one side fills the to-many side")
        try context.save()
        context.delete(walk)
        try context.save()
        #expect(dog.walks?.count == 0)
        let relaunched = try container().viewContext
        let stored = try relaunched.fetch(NSFetchRequest<Dog>(entityName: "Dog"))
        #expect(stored.first?.walks?.count == 0)
        #expect(try relaunched.count(for: NSFetchRequest<Walk>(entityName: "Walk")) == 0)
    }

    @Test func deletingADogCascadesToItsWalks() throws {
        let context = try container().viewContext
        let dog = Dog(context: context)
        for _ in 0..<2 { Walk(context: context).dog = dog }
        try context.save()
        context.delete(dog)
        try context.save()
        #expect(try context.count(for: NSFetchRequest<Walk>(entityName: "Walk")) == 0)
        #expect(try container().viewContext.count(for: NSFetchRequest<Walk>(entityName: "Walk")) == 0)
    }
}
