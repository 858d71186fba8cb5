import Foundation
import Testing
@testable import CoreData

/// Models read from Xcode files driving the whole stack: defaults, inheritance, validation
/// rules and fetch templates behave as they do with the compiled model on Apple platforms.
@MainActor @Suite struct LoadedModelStackTests {
    let directory = TemporaryDirectory()

    private func container(_ model: NSManagedObjectModel, _ name: String) throws -> NSPersistentContainer {
        try makeContainer(name, model: model, storeURL: directory.file("\(name).sqlite"))
    }

    private func exampleModel(_ app: String) throws -> NSManagedObjectModel {
        try NSManagedObjectModel.load(contentsOf: ModelFiles.examples.appendingPathComponent("\(app)/Model/\(app).xcdatamodeld"))
    }

    @Test func insertedObjectsStartWithTheModelsDefaultsAndSave() throws {
        let model = try NSManagedObjectModel.load(contentsOf: ModelFiles.fixture("Fixture.xcdatamodeld"))
        let context = try container(model, "Fixture").viewContext
        let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
        #expect(book.value(forKey: "title") as? String == "Untitled")
        #expect(book.value(forKey: "pages") as? Int == 100)
        #expect(book.value(forKey: "inPrint") as? Bool == true)
        #expect(book.value(forKey: "added") as? Date == Date(timeIntervalSinceReferenceDate: 694_224_000))
        try context.save()
        let items = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))
        #expect(items.map { $0.entity.name } == ["Book"], "an abstract parent's fetch finds its subentities")
    }

    @Test func bowTieRatingAboveTheModelsMaximumFailsWith1610() throws {
        let context = try container(exampleModel("BowTies"), "BowTies").viewContext
        let tie = NSEntityDescription.insertNewObject(forEntityName: "BowTie", into: context)
        tie.setValue("Red", forKey: "name")
        tie.setValue(6.0, forKey: "rating")
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.domain == NSCocoaErrorDomain && error.code == NSValidationNumberTooLargeError)
        #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "rating")
        tie.setValue(5.0, forKey: "rating")
        try context.save()
    }

    @Test func worldCupSeedImportsAndTheVenueTemplateFetches() throws {
        let worldCup = try container(exampleModel("WorldCup"), "WorldCup").viewContext
        let url = ModelFiles.examples.appendingPathComponent("WorldCup/Resources/seed.json")
        let teams = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
        for values in teams {
            let team = NSEntityDescription.insertNewObject(forEntityName: "Team", into: worldCup)
            for key in ["teamName", "qualifyingZone", "imageName", "wins"] { team.setValue(values[key], forKey: key) }
        }
        try worldCup.save()
        #expect(try worldCup.count(for: NSFetchRequest<NSManagedObject>(entityName: "Team")) == 32)

        let model = try exampleModel("BubbleTeaFinder")
        let bubbleTea = try container(model, "BubbleTeaFinder").viewContext
        let venue = NSEntityDescription.insertNewObject(forEntityName: "Venue", into: bubbleTea)
        venue.setValue("Boba Lab", forKey: "name")
        try bubbleTea.save()
        let template = try #require(model.fetchRequestTemplate(forName: "FetchRequest"))
        #expect(try bubbleTea.fetch(template).count == 1)
    }
}
