import Foundation
import Testing
@testable import CoreData

/// The models and seed data of the example apps (Core Data by Tutorials, chapters 1 to 5).
@Suite struct ExampleModelTests {
    /// Each app's entities and their attribute and relationship names, as the book sets them up.
    static let expectedModels: [(app: String, entities: [String: Set<String>])] = [
        ("HitList", ["Person": ["name"]]),
        ("BowTies", ["BowTie": ["id", "isFavorite", "lastWorn", "name", "photoData", "rating", "searchKey", "timesWorn", "tintColor", "url"]]),
        ("DogWalk", ["Dog": ["name", "walks"], "Walk": ["date", "distance", "dog"]]),
        ("BubbleTeaFinder", [
            "Venue": ["favorite", "id", "name", "phone", "specialCount", "category", "location", "priceInfo", "stats"],
            "Category": ["categoryID", "name", "venue"],
            "Location": ["address", "city", "country", "distance", "state", "zipcode", "venue"],
            "PriceInfo": ["priceCategory", "venue"],
            "Stats": ["checkinsCount", "tipCount", "usersCount", "venue"],
        ]),
        ("WorldCup", ["Team": ["imageName", "qualifyingZone", "teamName", "wins"]]),
    ]

    private static func model(_ app: String) throws -> NSManagedObjectModel {
        let url = ModelFiles.examples.appendingPathComponent("\(app)/Model/\(app).xcdatamodeld")
        return try NSManagedObjectModel.load(contentsOf: url)
    }

    @Test(arguments: expectedModels.map(\.app))
    func exampleModelLoadsWithTheBooksEntities(app: String) throws {
        let model = try Self.model(app)
        let expected = try #require(Self.expectedModels.first { $0.app == app }).entities
        #expect(Set(model.entitiesByName.keys) == Set(expected.keys))
        for (entity, properties) in expected {
            #expect(Set(model.entitiesByName[entity]?.propertiesByName.keys.map { $0 } ?? []) == properties, "\(app).\(entity)")
        }
    }

    @Test func bowTieAttributesHaveTheBooksTypesAndValidation() throws {
        let bowTie = try #require(try Self.model("BowTies").entitiesByName["BowTie"])
        let types = bowTie.attributesByName.mapValues(\.attributeType)
        #expect(types["timesWorn"] == .integer32AttributeType && types["rating"] == .doubleAttributeType)
        #expect(types["id"] == .UUIDAttributeType && types["url"] == .URIAttributeType)
        #expect(bowTie.attributesByName["photoData"]?.allowsExternalBinaryDataStorage == true)
        #expect(bowTie.attributesByName["tintColor"]?.valueTransformerName == "ColorAttributeTransformer")
        #expect(bowTie.attributesByName["rating"]?.validationWarnings.compactMap { $0 as? Int } == [NSValidationNumberTooSmallError, NSValidationNumberTooLargeError])
    }

    @Test func dogWalksAreAnOrderedToManyWithAnInverse() throws {
        let walks = try #require(try Self.model("DogWalk").entitiesByName["Dog"]?.relationshipsByName["walks"])
        #expect(walks.isToMany && walks.isOrdered)
        #expect(walks.inverseRelationship?.name == "dog" && walks.inverseRelationship?.isToMany == false)
    }

    @Test func bubbleTeaFinderHasTheVenueFetchRequestTemplate() throws {
        let template = try #require(try Self.model("BubbleTeaFinder").fetchRequestTemplate(forName: "FetchRequest"))
        #expect(template.entityName == "Venue" && template.predicate == nil)
    }

    // MARK: Seed data

    @Test func bowTiesSampleDataHasSevenTiesWithTheModelsAttributes() throws {
        let url = ModelFiles.examples.appendingPathComponent("BowTies/Resources/SampleData.plist")
        let ties = try #require(try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil) as? [[String: Any]])
        #expect(ties.count == 7)
        let attributes = Set(try #require(try Self.model("BowTies").entitiesByName["BowTie"]).attributesByName.keys)
        for tie in ties {
            // The image is named in the plist and turned into photoData by the app.
            #expect(Set(tie.keys) == attributes.subtracting(["photoData"]).union(["imageName"]))
            #expect(tie["id"].flatMap { $0 as? String }.flatMap(UUID.init(uuidString:)) != nil)
            #expect(tie["lastWorn"] is Date)
            let color = try #require(tie["tintColor"] as? [String: Int])
            #expect(Set(color.keys) == ["red", "green", "blue"] && color.values.allSatisfy { (0...255).contains($0) })
            #expect((tie["rating"] as? Double).map { (0...5).contains($0) } == true)
        }
        #expect(Set(ties.compactMap { $0["searchKey"] as? String }) == ["R", "O", "Y", "G", "B", "I", "V"])
    }

    @Test func bubbleTeaSeedHasAboutThirtyVenuesInThreePriceCategories() throws {
        let url = ModelFiles.examples.appendingPathComponent("BubbleTeaFinder/Resources/seed.json")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let venues = try #require((root["response"] as? [String: Any])?["venues"] as? [[String: Any]])
        #expect(venues.count == 30)
        var prices: [String: Int] = [:]
        for venue in venues {
            #expect(venue["name"] is String)
            let price = try #require((venue["price"] as? [String: Any])?["currency"] as? String)
            prices[price, default: 0] += 1
            #expect((venue["location"] as? [String: Any])?["distance"] is Int)
            #expect((venue["location"] as? [String: Any])?["address"] is String)
            #expect((venue["stats"] as? [String: Any])?["tipCount"] is Int)
            #expect((venue["specials"] as? [String: Any])?["count"] is Int)
            #expect(((venue["categories"] as? [[String: Any]])?.first?["name"]) is String)
        }
        #expect(Set(prices.keys) == ["$", "$$", "$$$"])
        #expect(Set(venues.compactMap { $0["name"] as? String }).count == venues.count)
    }

    @Test func worldCupSeedHasThe32TeamsOf2014InTheirZones() throws {
        let url = ModelFiles.examples.appendingPathComponent("WorldCup/Resources/seed.json")
        let teams = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
        #expect(teams.count == 32)
        let attributes = Set(try #require(try Self.model("WorldCup").entitiesByName["Team"]).attributesByName.keys)
        for team in teams {
            #expect(Set(team.keys) == attributes)
            #expect(team["wins"] as? Int == 0)
        }
        var zones: [String: Int] = [:]
        for team in teams { zones[team["qualifyingZone"] as? String ?? "?", default: 0] += 1 }
        #expect(zones == ["Africa": 5, "Asia": 4, "Europe": 13, "North America": 4, "South America": 6])
        let byName = Dictionary(uniqueKeysWithValues: teams.compactMap { team in (team["teamName"] as? String).map { ($0, team) } })
        #expect(byName.count == 32)
        #expect(byName["Argentina"]?["qualifyingZone"] as? String == "South America")
        #expect(byName["Cameroon"]?["qualifyingZone"] as? String == "Africa")
        #expect(byName["Russia"]?["qualifyingZone"] as? String == "Europe")
        #expect(byName["Australia"]?["qualifyingZone"] as? String == "Asia")
    }
}
