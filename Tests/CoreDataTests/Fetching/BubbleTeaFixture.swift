import CoreData
import Foundation

/// The BubbleTeaFinder venue, typed as the book's generated subclass is.
final class BubbleTeaVenue: NSManagedObject {
    @Managed var name: String?
    @Managed var phone: String?
    @Managed var specialCount: Int32
    @Managed var favorite: Bool
    @Managed var category: NSManagedObject?
    @Managed var location: NSManagedObject?
    @Managed var priceInfo: NSManagedObject?
    @Managed var stats: NSManagedObject?

    @nonobjc class func fetchRequest() -> NSFetchRequest<BubbleTeaVenue> {
        NSFetchRequest<BubbleTeaVenue>(entityName: "Venue")
    }
}

/// One venue of the test data set, as the seed file describes it.
struct SeedVenue {
    let name: String
    let category: String
    let price: String
    let distance: Float
    let tipCount: Int32
    let specialCount: Int32
}

/// The BubbleTeaFinder model built in code (Venue with to-one Category, Location, PriceInfo and
/// Stats, as in the book) and a 30-venue data set shaped like the book's: 27 cheap, 2 moderate
/// and 1 expensive venue, 12 deals in all.
enum BubbleTeaFixture {
    static func model() -> NSManagedObjectModel {
        NSManagedObjectModel(entities: [
            NSEntityDescription(name: "Venue", className: "BubbleTeaVenue", properties: [
                NSAttributeDescription(name: "name", type: .stringAttributeType),
                NSAttributeDescription(name: "phone", type: .stringAttributeType),
                NSAttributeDescription(name: "specialCount", type: .integer32AttributeType, optional: false, defaultValue: 0),
                NSAttributeDescription(name: "favorite", type: .booleanAttributeType, optional: false, defaultValue: false),
                NSRelationshipDescription(name: "category", destination: "Category", inverse: "venues"),
                NSRelationshipDescription(name: "location", destination: "Location", inverse: "venue", deleteRule: .cascadeDeleteRule),
                NSRelationshipDescription(name: "priceInfo", destination: "PriceInfo", inverse: "venue", deleteRule: .cascadeDeleteRule),
                NSRelationshipDescription(name: "stats", destination: "Stats", inverse: "venue", deleteRule: .cascadeDeleteRule),
            ]),
            NSEntityDescription(name: "Category", properties: [
                NSAttributeDescription(name: "categoryID", type: .stringAttributeType),
                NSAttributeDescription(name: "name", type: .stringAttributeType),
                NSRelationshipDescription(name: "venues", destination: "Venue", toMany: true, inverse: "category"),
            ]),
            NSEntityDescription(name: "Location", properties: [
                NSAttributeDescription(name: "address", type: .stringAttributeType),
                NSAttributeDescription(name: "city", type: .stringAttributeType),
                NSAttributeDescription(name: "distance", type: .floatAttributeType, optional: false, defaultValue: 0),
                NSRelationshipDescription(name: "venue", destination: "Venue", inverse: "location"),
            ]),
            NSEntityDescription(name: "PriceInfo", properties: [
                NSAttributeDescription(name: "priceCategory", type: .stringAttributeType),
                NSRelationshipDescription(name: "venue", destination: "Venue", inverse: "priceInfo"),
            ]),
            NSEntityDescription(name: "Stats", properties: [
                NSAttributeDescription(name: "checkinsCount", type: .integer32AttributeType, optional: false, defaultValue: 0),
                NSAttributeDescription(name: "tipCount", type: .integer32AttributeType, optional: false, defaultValue: 0),
                NSRelationshipDescription(name: "venue", destination: "Venue", inverse: "stats"),
            ]),
        ])
    }

    static let categoryNames = ["Bubble Tea Shop", "Café", "Tea Room", "Dessert Shop"]

    /// Made-up venues; every number is derived from the position so tests can recompute them.
    static let venues: [SeedVenue] = {
        let names = ["Amber Pearl", "Boba Lane", "Cloud Tea House", "Dragon Sip", "Emerald Leaf", "Formosa Corner",
                     "Golden Tapioca", "Honey Dew Bar", "Island Milk Tea", "Jade Kettle", "Kumquat Café", "Lychee Loft",
                     "Mango Moon", "Night Market Tea", "Oolong Street", "Panda Pearl", "Quiet Straw", "Rose Taro",
                     "Sesame Sip", "Taro Tower", "Ube Garden", "Velvet Boba", "Wintermelon Way", "Xing Tea",
                     "Yuzu Yard", "Zen Bubble", "almond Drift", "Brown Sugar Bay", "Coconut Cove", "Pearl District"]
        return names.enumerated().map { index, name in
            SeedVenue(name: name,
                      category: categoryNames[index % categoryNames.count],
                      price: index == 29 ? "$$$" : (index == 7 || index == 18) ? "$$" : "$",
                      distance: Float((index * 137) % 1500 + 20),
                      tipCount: index % 3 == 0 ? 0 : Int32(index % 7 + 1),
                      specialCount: index % 5 == 0 ? 2 : 0)
        }
    }()

    /// The seed as the app's JSON would give it, decoded the way the book's importer does.
    static func seedJSON() throws -> [[String: Any]] {
        let entries: [[String: Any]] = venues.map { venue in
            ["name": venue.name, "categories": [["name": venue.category]], "price": ["currency": venue.price],
             "location": ["distance": venue.distance, "city": "New York"], "stats": ["tipCount": venue.tipCount, "checkinsCount": 10],
             "specials": ["count": venue.specialCount]]
        }
        let data = try JSONSerialization.data(withJSONObject: ["response": ["venues": entries]])
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return (root?["response"] as? [String: Any])?["venues"] as? [[String: Any]] ?? []
    }

    /// A loaded store holding the seed, saved.
    static func container(in directory: TemporaryDirectory, type: String = NSSQLiteStoreType,
                          model: NSManagedObjectModel = model()) throws -> NSPersistentContainer {
        let container = try makeContainer("BubbleTeaFinder", model: model, storeURL: directory.file("BubbleTeaFinder.sqlite"), type: type)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var categories: [String: NSManagedObject] = [:]
            for entry in try seedJSON() {
                let venue = BubbleTeaVenue(context: context)
                venue.name = entry["name"] as? String
                venue.specialCount = Int32((entry["specials"] as? [String: Any])?["count"] as? Int ?? 0)
                let categoryName = ((entry["categories"] as? [[String: Any]])?.first?["name"] as? String) ?? ""
                if categories[categoryName] == nil {
                    let category = NSManagedObject(entity: container.managedObjectModel.entitiesByName["Category"]!, insertInto: context)
                    category.setValue(categoryName, forKey: "name")
                    categories[categoryName] = category
                }
                venue.category = categories[categoryName]
                let location = NSManagedObject(entity: container.managedObjectModel.entitiesByName["Location"]!, insertInto: context)
                location.setValue((entry["location"] as? [String: Any])?["distance"], forKey: "distance")
                venue.location = location
                let price = NSManagedObject(entity: container.managedObjectModel.entitiesByName["PriceInfo"]!, insertInto: context)
                price.setValue((entry["price"] as? [String: Any])?["currency"], forKey: "priceCategory")
                venue.priceInfo = price
                let stats = NSManagedObject(entity: container.managedObjectModel.entitiesByName["Stats"]!, insertInto: context)
                stats.setValue((entry["stats"] as? [String: Any])?["tipCount"], forKey: "tipCount")
                venue.stats = stats
            }
            try context.save()
        }
        return container
    }
}
