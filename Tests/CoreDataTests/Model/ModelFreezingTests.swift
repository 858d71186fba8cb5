@testable import CoreData
import Foundation
import Testing

/// A model can be changed freely until a coordinator uses it, and not after (stopping the
/// program on such an edit is checked in a child process by `DebugSwitchTests`).
@Suite struct ModelFreezingTests {
    @Test func aModelIsEditableUntilTheFirstCoordinatorUsesIt() throws {
        let model = PeopleModel.make()
        #expect(model.isEditable)
        let person = try #require(model.entitiesByName["Person"])
        person.properties.append(NSAttributeDescription(name: "email", type: .stringAttributeType))
        person.attributesByName["age"]?.isOptional = false
        model.setFetchRequestTemplate(NSFetchRequest(entityName: "Person"), forName: "everyone")
        #expect(model.isEditable, "editing does not freeze")
        _ = NSPersistentStoreCoordinator(managedObjectModel: model)
        #expect(!model.isEditable)
        // The edits made before are what the coordinator's stores see.
        let directory = TemporaryDirectory()
        let container = try makeContainer(model: model, storeURL: directory.file("Frozen.sqlite"))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let ada = context.insertPerson("Ada", age: 36)
            ada.setValue("ada@example.org", forKey: "email")
            try context.save()
            let everyone = try #require(model.fetchRequestTemplate(forName: "everyone"))
            #expect(try context.fetch(everyone).count == 1)
        }
    }

    @Test func aCopyMadeByMergingAFrozenModelIsEditable() throws {
        let model = PeopleModel.make()
        _ = NSPersistentStoreCoordinator(managedObjectModel: model)
        let copy = try #require(NSManagedObjectModel(byMerging: [model]))
        #expect(copy.isEditable)
        copy.entitiesByName["Person"]?.attributesByName["age"]?.isOptional = false
        #expect(copy.entitiesByName["Person"]?.attributesByName["age"]?.isOptional == false)
        #expect(model.entitiesByName["Person"]?.attributesByName["age"]?.isOptional == true)
    }
}
