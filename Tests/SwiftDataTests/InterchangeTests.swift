import Foundation
import SwiftData
import Testing

@Suite("Interchange with Core Data: the same store file both ways")
struct InterchangeTests {
    /// The Core Data model a programmer would write for `Seat` by hand.
    static func seatModel() -> NSManagedObjectModel {
        let entity = NSEntityDescription()
        entity.name = "Seat"
        entity.properties = ["flight", "number", "passenger"].map { NSAttributeDescription(name: $0, type: .stringAttributeType, optional: false) }
        entity.uniquenessConstraints = [["flight", "number"]]
        let model = NSManagedObjectModel()
        model.entities = [entity]
        return model
    }

    static func coreDataContainer(_ url: URL) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Seats", managedObjectModel: seatModel())
        let description = NSPersistentStoreDescription(url: url)
        description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    @Test func swiftDataSchemaHasTheHandWrittenModelsVersionHashes() throws {
        let schema = Schema([Seat.self])
        #expect(schema.managedObjectModel.entityVersionHashesByName == Self.seatModel().entityVersionHashesByName)
    }

    @Test func storeWrittenBySwiftDataOpensInCoreDataAndBack() throws {
        let directory = TemporaryDirectory()
        do {
            let context = ModelContext(try directory.container(Seat.self))
            context.insert(Seat(flight: "TP1", number: "2C", passenger: "Ana"))
            try context.save()
        }
        do {
            let container = try Self.coreDataContainer(directory.storeURL)
            let context = container.viewContext
            let seats = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Seat"))
            #expect(seats.map { $0.value(forKey: "passenger") as? String } == ["Ana"])
            let seat = NSManagedObject(entity: container.managedObjectModel.entitiesByName["Seat"]!, insertInto: context)
            seat.setValue("TP9", forKey: "flight")
            seat.setValue("1A", forKey: "number")
            seat.setValue("Rui", forKey: "passenger")
            try context.save()
            for store in container.persistentStoreCoordinator.persistentStores { try container.persistentStoreCoordinator.remove(store) }
        }
        let context = ModelContext(try directory.container(Seat.self))
        let seats = try context.fetch(FetchDescriptor<Seat>(sortBy: [SortDescriptor(\.flight)]))
        #expect(seats.map(\.passenger) == ["Ana", "Rui"])
    }
}
