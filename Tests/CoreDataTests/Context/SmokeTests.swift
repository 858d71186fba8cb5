import CoreData
import Testing

@Suite struct SmokeTests {
    static func personModel() -> NSManagedObjectModel {
        NSManagedObjectModel(entities: [
            NSEntityDescription(name: "Person", properties: [
                NSAttributeDescription(name: "name", type: .stringAttributeType),
                NSAttributeDescription(name: "age", type: .integer16AttributeType, optional: false, defaultValue: 0),
            ]),
        ])
    }

    @Test func insertSaveAndReadBackAfterRelaunch() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("HitList.sqlite")
        do {
            let container = try makeContainer(model: Self.personModel(), storeURL: url)
            let context = container.viewContext
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            person.setValue("Ada", forKey: "name")
            try context.save()
            #expect(person.objectID.isTemporaryID == false)
        }
        let relaunched = try makeContainer(model: Self.personModel(), storeURL: url)
        let people = try relaunched.viewContext.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))
        #expect(people.count == 1)
        #expect(people.first?.value(forKey: "name") as? String == "Ada")
        #expect(people.first?.value(forKey: "age") as? Int == 0)
    }
}
