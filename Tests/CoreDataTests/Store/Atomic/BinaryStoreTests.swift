@testable import CoreData
import Foundation
import Testing

/// `NSBinaryStoreType`: the whole graph in one file, read back by another coordinator with every
/// attribute type and relationship kind, the same object IDs and store UUID, fetched and
/// watched like any store, and written atomically: a failed save changes neither the file nor
/// the store. The random fetch cases (`ContextDifferentialTests`) and controller batches
/// (`ControllerPropertyTests`) run on it too.
@MainActor @Suite struct BinaryStoreTests {
    let directory = TemporaryDirectory()

    func context(_ name: String, model: NSManagedObjectModel = TestModels.dogWalk()) throws -> NSManagedObjectContext {
        try makeContainer(model: model, storeURL: directory.file(name), type: NSBinaryStoreType).viewContext
    }

    @discardableResult
    func insertDog(_ name: String, walks: [Double], into context: NSManagedObjectContext) -> Dog {
        let dog = Dog(context: context)
        dog.name = name
        for seconds in walks {
            let walk = Walk(context: context)
            walk.date = Date(timeIntervalSinceReferenceDate: seconds)
            dog.mutableOrderedSetValue(forKey: "walks").add(walk)
        }
        return dog
    }

    @Test func everyAttributeTypeReadsBackInANewCoordinator() throws {
        let values = AllTypesSample(photoBytes: 4096)
        do {
            let context = try context("Types.binary", model: TestModels.allTypes())
            values.set(on: NSEntityDescription.insertNewObject(forEntityName: "Sample", into: context))
            _ = NSEntityDescription.insertNewObject(forEntityName: "Sample", into: context)
            try context.save()
        }
        let context = try context("Types.binary", model: TestModels.allTypes())
        let samples = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Sample"))
        #expect(samples.count == 2)
        let sample = try #require(samples.first { $0.value(forKey: "text") != nil })
        try values.expectRoundTripped(sample)
        #expect(sample.value(forKey: "when") as? Date == values.when)
        let empty = try #require(samples.first { $0 !== sample })
        #expect(empty.value(forKey: "text") == nil && empty.value(forKey: "amount") == nil && empty.value(forKey: "colour") == nil)
    }

    @Test func nestedCompositeValuesReadBackAndFilter() throws {
        let model = try CompositeAttributeTests.model()
        do {
            let context = try context("Composite.binary", model: model)
            let ada = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            ada.setValue("Ada", forKey: "name")
            ada.setValue(["city": "London", "postcode": 1, "location": ["latitude": 51.5, "longitude": -0.125]], forKey: "address")
            _ = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            try context.save()
        }
        let context = try context("Composite.binary", model: model)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.predicate = NSPredicate(format: "address.location.latitude > 50")
        let people = try context.fetch(request)
        #expect(people.map { $0.value(forKey: "name") as? String } == ["Ada"])
        let address = try #require(people.first?.value(forKey: "address") as? [String: Any])
        #expect(address["city"] as? String == "London")
        #expect(address["postcode"] as? Int32 == 1)
        #expect((address["location"] as? [String: Any])?["longitude"] as? Double == -0.125)
        #expect(address["street"] == nil)
    }

    @Test func orderedToManyAndToOneRelationshipsReadBack() throws {
        do {
            let context = try context("Walks.binary")
            insertDog("Rex", walks: [30, 10, 20], into: context)
            insertDog("Fido", walks: [], into: context)
            try context.save()
        }
        let context = try context("Walks.binary")
        let request = NSFetchRequest<Dog>(entityName: "Dog")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: false)]
        let dogs = try context.fetch(request)
        #expect(dogs.map(\.name) == ["Rex", "Fido"])
        let walks = try #require(dogs[0].walks?.array as? [Walk])
        #expect(walks.map { $0.date?.timeIntervalSinceReferenceDate } == [30, 10, 20])
        #expect(walks.allSatisfy { $0.dog === dogs[0] })
        #expect(dogs[1].walks?.count == 0)
    }

    @Test func manyToManyRelationshipsAcrossSubentitiesReadBack() throws {
        do {
            let context = try context("Library.binary", model: TestModels.library())
            let fiction = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            fiction.setValue("fiction", forKey: "label")
            let classic = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            classic.setValue("classic", forKey: "label")
            for (entity, title) in [("Book", "Emma"), ("Book", "Dune"), ("Film", "Alien")] {
                let item = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
                item.setValue(title, forKey: "title")
                item.mutableSetValue(forKey: "tags").add(fiction)
                if title == "Emma" { item.mutableSetValue(forKey: "tags").add(classic) }
            }
            try context.save()
        }
        let context = try context("Library.binary", model: TestModels.library())
        let request = NSFetchRequest<NSManagedObject>(entityName: "Tag")
        request.sortDescriptors = [NSSortDescriptor(key: "label", ascending: true)]
        let tags = try context.fetch(request)
        func titles(_ tag: NSManagedObject) -> Set<String> {
            Set(((tag.value(forKey: "items") as? NSSet)?.allObjects as? [NSManagedObject] ?? []).compactMap { $0.value(forKey: "title") as? String })
        }
        #expect(tags.map { $0.value(forKey: "label") as? String } == ["classic", "fiction"])
        #expect(titles(tags[0]) == ["Emma"])
        #expect(titles(tags[1]) == ["Emma", "Dune", "Alien"])
        let items = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))
        #expect(Set(items.compactMap(\.entity.name)) == ["Book", "Film"])
    }

    @Test func objectIDsAndTheStoreUUIDStayTheSameAcrossOpens() throws {
        let url = directory.file("Stable.binary")
        let first = try makeContainer(model: TestModels.dogWalk(), storeURL: url, type: NSBinaryStoreType)
        let firstStore = try #require(first.persistentStoreCoordinator.persistentStores.first)
        let uuid = try #require(firstStore.metadata[NSStoreUUIDKey] as? String)
        #expect(firstStore.identifier == uuid)
        #expect(firstStore.type == NSBinaryStoreType)
        #expect(firstStore.metadata[NSStoreTypeKey] as? String == NSBinaryStoreType)
        let rex = insertDog("Rex", walks: [1], into: first.viewContext)
        try first.viewContext.save()
        let uri = rex.objectID.uriRepresentation()

        let second = try makeContainer(model: TestModels.dogWalk(), storeURL: url, type: NSBinaryStoreType)
        let secondStore = try #require(second.persistentStoreCoordinator.persistentStores.first)
        #expect(secondStore.identifier == uuid)
        #expect(second.persistentStoreCoordinator.metadata(for: secondStore)[NSStoreUUIDKey] as? String == uuid)
        #expect(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSBinaryStoreType, at: url)[NSStoreUUIDKey] as? String == uuid)
        let id = try #require(second.persistentStoreCoordinator.managedObjectID(forURIRepresentation: uri))
        #expect((second.viewContext.object(with: id) as? Dog)?.name == "Rex")
        let fetched = try #require(try second.viewContext.fetch(NSFetchRequest<Dog>(entityName: "Dog")).first)
        #expect(fetched.objectID.uriRepresentation() == uri)

        // A new object never takes the key of one deleted before the store was reopened.
        second.viewContext.delete(fetched)
        try second.viewContext.save()
        let third = try makeContainer(model: TestModels.dogWalk(), storeURL: url, type: NSBinaryStoreType)
        let fido = insertDog("Fido", walks: [], into: third.viewContext)
        try third.viewContext.save()
        #expect(fido.objectID.uriRepresentation() != uri)
    }

    @Test func deletesAndEditsAreWrittenAndCascade() throws {
        do {
            let context = try context("Deletes.binary")
            insertDog("Rex", walks: [1, 2], into: context)
            let fido = insertDog("Fido", walks: [3, 4, 5], into: context)
            try context.save()
            context.delete(fido)
            let rex = try #require(try context.fetch(NSFetchRequest<Dog>(entityName: "Dog")).first)
            rex.name = "Rex II"
            (rex.walks?.firstObject as? Walk).map(context.delete)
            try context.save()
        }
        let context = try context("Deletes.binary")
        let dogs = try context.fetch(NSFetchRequest<Dog>(entityName: "Dog"))
        #expect(dogs.map(\.name) == ["Rex II"])
        #expect(try context.count(for: NSFetchRequest<Walk>(entityName: "Walk")) == 1)
        #expect((dogs.first?.walks?.array as? [Walk])?.map { $0.date?.timeIntervalSinceReferenceDate } == [2])
    }

    @Test func fetchesFilterSortAndPageInMemory() throws {
        let context = try context("Fetches.binary")
        for (name, count) in [("Rex", 3), ("Ace", 1), ("Bo", 2), ("Max", 0)] {
            insertDog(name, walks: (0..<count).map(Double.init), into: context)
        }
        try context.save()
        let request = NSFetchRequest<Dog>(entityName: "Dog")
        request.predicate = NSPredicate(format: "walks.@count > 0 AND name != %@", "Bo")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        request.includesPendingChanges = false
        #expect(try context.fetch(request).map(\.name) == ["Ace", "Rex"])
        #expect(try context.count(for: request) == 2)
        request.predicate = nil
        request.fetchOffset = 1
        request.fetchLimit = 2
        #expect(try context.fetch(request).map(\.name) == ["Bo", "Max"])
        let walks = NSFetchRequest<Walk>(entityName: "Walk")
        walks.predicate = NSPredicate(format: "dog.name BEGINSWITH %@", "R")
        walks.includesPendingChanges = false
        #expect(try context.count(for: walks) == 3)
    }

    @Test func aFetchedResultsControllerFollowsSaves() throws {
        let context = try context("Controller.binary")
        insertDog("Rex", walks: [], into: context)
        try context.save()
        let request = NSFetchRequest<Dog>(entityName: "Dog")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        try controller.performFetch()
        let recorder = TableRecorder.attached(to: controller)
        insertDog("Ace", walks: [], into: context)
        try context.save()
        #expect(controller.fetchedObjects?.map(\.name) == ["Ace", "Rex"])
        #expect(recorder.objectChanges.map(\.type) == [.insert])
        #expect(recorder.replayFailures.isEmpty)

        let reopened = NSFetchedResultsController(fetchRequest: request, managedObjectContext: try self.context("Controller.binary"),
                                                  sectionNameKeyPath: nil, cacheName: nil)
        try reopened.performFetch()
        #expect(reopened.fetchedObjects?.map(\.name) == ["Ace", "Rex"])
    }

    @Test func aFailedSaveLeavesTheFileAndTheStoreAsTheyWere() throws {
        ValueTransformer.setValueTransformer(OpaqueOnlyTransformer(), forName: OpaqueOnlyTransformer.name)
        let url = directory.file("Atomic.binary")
        let model = OpaqueOnlyTransformer.model()
        let context = try makeContainer(model: model, storeURL: url, type: NSBinaryStoreType).viewContext
        let kept = NSEntityDescription.insertNewObject(forEntityName: "Swatch", into: context)
        kept.setValue("kept", forKey: "name")
        kept.setValue(RGBAColourBox(RGBAColour(red: 1, green: 1, blue: 1, alpha: 255)), forKey: "colour")
        try context.save()
        let before = try Data(contentsOf: url)
        let store = try #require(context.persistentStoreCoordinator?.persistentStores.first as? NSAtomicStore)
        let keptNode = try #require(store.cacheNode(for: kept.objectID))

        kept.setValue("renamed", forKey: "name")
        let doomed = NSEntityDescription.insertNewObject(forEntityName: "Swatch", into: context)
        doomed.setValue(RGBAColourBox(RGBAColour(red: 0, green: 0, blue: 0, alpha: 0)), forKey: "colour")
        let error = #expect(throws: NSError.self) { try context.save() }
        #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "colour")

        #expect(try Data(contentsOf: url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["Atomic.binary"])
        #expect(store.cacheNodes() == [keptNode])
        #expect(keptNode.value(forKey: "name") as? String == "kept")
        #expect(context.hasChanges)
        let other = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        other.persistentStoreCoordinator = context.persistentStoreCoordinator
        #expect(try other.fetch(NSFetchRequest<NSManagedObject>(entityName: "Swatch")).map { $0.value(forKey: "name") as? String } == ["kept"])

        doomed.setValue(RGBAColourBox(RGBAColour(red: 0, green: 0, blue: 0, alpha: 255)), forKey: "colour")
        try context.save()
        let reopened = try makeContainer(model: model, storeURL: url, type: NSBinaryStoreType).viewContext
        let request = NSFetchRequest<NSManagedObject>(entityName: "Swatch")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        #expect(try reopened.fetch(request).map { $0.value(forKey: "name") as? String } == [nil, "renamed"])
    }

    @Test func batchRequestsAreRefusedWithUnsupportedRequestType() throws {
        let context = try context("Batch.binary")
        insertDog("Rex", walks: [], into: context)
        try context.save()
        let update = NSBatchUpdateRequest(entityName: "Dog")
        update.propertiesToUpdate = ["name": "Max"]
        let requests: [NSPersistentStoreRequest] = [
            update,
            NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Dog")),
            NSBatchInsertRequest(entityName: "Dog", objects: [["name": "Bo"]]),
        ]
        for request in requests {
            let error = #expect(throws: NSError.self) { try context.execute(request) }
            #expect(error?.code == NSPersistentStoreUnsupportedRequestTypeError)
        }
        #expect(try context.fetch(NSFetchRequest<Dog>(entityName: "Dog")).map(\.name) == ["Rex"])
    }

    @Test func theStoreOpensThroughEveryAPI() throws {
        let model = TestModels.dogWalk()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let byName = try coordinator.addPersistentStore(ofType: NSBinaryStoreType, configurationName: nil, at: directory.file("a.binary"))
        let typed = try NSPersistentStoreCoordinator(managedObjectModel: model).addPersistentStore(type: .binary, at: directory.file("b.binary"))
        #expect(byName.type == NSBinaryStoreType && typed.type == NSBinaryStoreType)
        #expect(byName is NSAtomicStore)
        #expect(NSPersistentStoreCoordinator.registeredStoreTypes[NSBinaryStoreType] != nil)
        try coordinator.destroyPersistentStore(at: directory.file("a.binary"), type: .binary)
        #expect(coordinator.persistentStores.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory.file("a.binary").path))

        let container = NSPersistentContainer(name: "Walks", managedObjectModel: model)
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: directory.file("c.binary"))]
        container.persistentStoreDescriptions[0].type = NSBinaryStoreType
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)
        #expect(FileManager.default.fileExists(atPath: directory.file("c.binary").path))
    }

    @Test func aFileThatIsNotABinaryStoreIsRefusedAndLeftUntouched() throws {
        let url = directory.file("Foreign.binary")
        let bytes = Data("not a store".utf8)
        try bytes.write(to: url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestModels.dogWalk())
        let error = #expect(throws: NSError.self) { try coordinator.addPersistentStore(type: .binary, at: url) }
        #expect(error?.code == 259)
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test func aStoreWrittenWithAnotherModelIsRefused() throws {
        _ = try context("Model.binary")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: TestModels.library())
        let error = #expect(throws: NSError.self) { try coordinator.addPersistentStore(type: .binary, at: directory.file("Model.binary")) }
        #expect(error?.code == NSPersistentStoreIncompatibleVersionHashError)
    }
}

/// Writes a colour's bytes only when it is opaque: a transformer that fails on demand, so a
/// test can make a save fail while the file is being written.
final class OpaqueOnlyTransformer: ValueTransformer {
    static let name = NSValueTransformerName("BinaryStoreTests.OpaqueOnlyTransformer")

    static func model() -> NSManagedObjectModel {
        let colour = NSAttributeDescription(name: "colour", type: .transformableAttributeType)
        colour.valueTransformerName = name.rawValue
        return NSManagedObjectModel(entities: [
            NSEntityDescription(name: "Swatch", properties: [NSAttributeDescription(name: "name", type: .stringAttributeType), colour]),
        ])
    }

    override func transformedValue(_ value: Any?) -> Any? {
        guard let colour = (value as? RGBAColourBox)?.colour, colour.alpha == 255 else { return nil }
        return RGBAColourTransformer().transformedValue(value)
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        RGBAColourTransformer().reverseTransformedValue(value)
    }
}
