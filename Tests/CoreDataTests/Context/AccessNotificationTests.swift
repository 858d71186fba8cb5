import CoreData
import Foundation
import Testing

/// A subclass that counts `willAccessValue(forKey:)` and `didAccessValue(forKey:)` calls per
/// key, and `willChangeValue(forKey:)` and `didChangeValue(forKey:)`, the way an app overriding
/// them (to log reads and writes, or to fill a value lazily) sees them.
final class AccessCountingShelf: NSManagedObject {
    @Managed var label: String?
    @Managed var position: Int32
    @Managed var width: Double
    @Managed var price: Decimal?
    @Managed var code: UUID?
    @Managed var link: URL?
    @Managed var addedOn: Date?
    @Managed var neighbour: AccessCountingShelf?
    @Managed var items: NSSet?

    var willAccessCounts: [String: Int] = [:]
    var didAccessCounts: [String: Int] = [:]
    var willChangeCounts: [String: Int] = [:]
    var didChangeCounts: [String: Int] = [:]

    override func willAccessValue(forKey key: String?) {
        super.willAccessValue(forKey: key)
        willAccessCounts[key ?? "", default: 0] += 1
    }

    override func didAccessValue(forKey key: String?) {
        didAccessCounts[key ?? "", default: 0] += 1
        super.didAccessValue(forKey: key)
    }

    override func willChangeValue(forKey key: String) {
        super.willChangeValue(forKey: key)
        willChangeCounts[key, default: 0] += 1
    }

    override func didChangeValue(forKey key: String) {
        didChangeCounts[key, default: 0] += 1
        super.didChangeValue(forKey: key)
    }

    func resetCounts() {
        willAccessCounts = [:]
        didAccessCounts = [:]
        willChangeCounts = [:]
        didChangeCounts = [:]
    }
}

/// Reading a property through `@Managed` sends one `willAccessValue(forKey:)` and one
/// `didAccessValue(forKey:)`, whatever the value and whatever the kind of property, as
/// `@NSManaged` does on Apple platforms.
@Suite struct AccessNotificationTests {
    let directory = TemporaryDirectory()
    let model = NSManagedObjectModel(entities: [
        NSEntityDescription(name: "Shelf", className: "AccessCountingShelf", properties: [
            NSAttributeDescription(name: "label", type: .stringAttributeType),
            NSAttributeDescription(name: "position", type: .integer32AttributeType),
            NSAttributeDescription(name: "width", type: .doubleAttributeType),
            NSAttributeDescription(name: "price", type: .decimalAttributeType),
            NSAttributeDescription(name: "code", type: .UUIDAttributeType),
            NSAttributeDescription(name: "link", type: .URIAttributeType),
            NSAttributeDescription(name: "addedOn", type: .dateAttributeType),
            NSRelationshipDescription(name: "neighbour", destination: "Shelf"),
            NSRelationshipDescription(name: "items", destination: "Item", toMany: true, inverse: "shelf"),
        ]),
        NSEntityDescription(name: "Item", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSRelationshipDescription(name: "shelf", destination: "Shelf", inverse: "items"),
        ]),
    ])

    static let attributeKeys = ["label", "position", "width", "price", "code", "link", "addedOn"]
    static let relationshipKeys = ["neighbour", "items"]

    /// Reads every `@Managed` property once, keeping the results so the reads are not dropped.
    func readAll(_ shelf: AccessCountingShelf) -> [Any?] {
        [shelf.label, shelf.position, shelf.width, shelf.price, shelf.code, shelf.link, shelf.addedOn,
         shelf.neighbour, shelf.items]
    }

    func expectOneCallPerKey(_ shelf: AccessCountingShelf, _ keys: [String]) {
        for key in keys {
            #expect(shelf.willAccessCounts[key] == 1, "willAccessValue(forKey: \"\(key)\")")
            #expect(shelf.didAccessCounts[key] == 1, "didAccessValue(forKey: \"\(key)\")")
        }
        #expect(Set(shelf.willAccessCounts.keys) == Set(keys))
    }

    @Test func aNilAttributeReadOfANewObjectIsAccessedOnce() throws {
        let container = try makeContainer("Shelves", model: model, storeURL: directory.file("Shelves.sqlite"))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let shelf = try #require(NSEntityDescription.insertNewObject(forEntityName: "Shelf", into: context) as? AccessCountingShelf)
            shelf.resetCounts()
            let values = readAll(shelf)
            #expect(values[0] as? String == nil)
            #expect(values[1] as? Int32 == 0)
            #expect(values[2] as? Double == 0)
            expectOneCallPerKey(shelf, Self.attributeKeys + Self.relationshipKeys)
        }
    }

    @Test func nilAndSetValuesOfAFetchedFaultAreAccessedOnceEach() throws {
        let container = try makeContainer("Shelves", model: model, storeURL: directory.file("Shelves.sqlite"))
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            let empty = try #require(NSEntityDescription.insertNewObject(forEntityName: "Shelf", into: writer) as? AccessCountingShelf)
            empty.label = "empty"
            let full = try #require(NSEntityDescription.insertNewObject(forEntityName: "Shelf", into: writer) as? AccessCountingShelf)
            full.label = "full"
            full.position = 3
            full.width = 1.5
            full.price = Decimal(string: "12.34")
            full.code = UUID()
            full.link = URL(string: "https://example.com/shelf")
            full.addedOn = Date(timeIntervalSinceReferenceDate: 1000)
            full.neighbour = empty
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: writer)
            item.setValue(full, forKey: "shelf")
            try writer.save()
        }

        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let request = NSFetchRequest<AccessCountingShelf>(entityName: "Shelf")
            request.returnsObjectsAsFaults = true
            let shelves = try reader.fetch(request)
            let empty = try #require(shelves.first { $0.label == "empty" })
            let full = try #require(shelves.first { $0.label == "full" })
            for shelf in [empty, full] {
                shelf.resetCounts()
                _ = readAll(shelf)
                expectOneCallPerKey(shelf, Self.attributeKeys + Self.relationshipKeys)
            }
            #expect(empty.price == nil)
            #expect(empty.neighbour == nil)
            #expect(full.price == Decimal(string: "12.34"))
            #expect(full.link == URL(string: "https://example.com/shelf"))
            #expect(full.neighbour === empty)
            #expect(full.items?.count == 1)
        }
    }

    @Test func aRelationshipReadIsAccessedOncePerRead() throws {
        let container = try makeContainer("Shelves", model: model, storeURL: directory.file("Shelves.sqlite"))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let left = try #require(NSEntityDescription.insertNewObject(forEntityName: "Shelf", into: context) as? AccessCountingShelf)
            let right = try #require(NSEntityDescription.insertNewObject(forEntityName: "Shelf", into: context) as? AccessCountingShelf)
            left.neighbour = right
            left.resetCounts()
            for _ in 0..<3 {
                #expect(left.neighbour === right)
                #expect(left.items?.count == 0)
            }
            #expect(left.willAccessCounts == ["neighbour": 3, "items": 3])
            #expect(left.didAccessCounts == ["neighbour": 3, "items": 3])
        }
    }

    @Test func aRelationshipWriteIsChangedOncePerWrite() throws {
        let container = try makeContainer("Shelves", model: model, storeURL: directory.file("Shelves.sqlite"))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let left = try #require(NSEntityDescription.insertNewObject(forEntityName: "Shelf", into: context) as? AccessCountingShelf)
            let right = try #require(NSEntityDescription.insertNewObject(forEntityName: "Shelf", into: context) as? AccessCountingShelf)
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            left.resetCounts()
            left.neighbour = right
            left.items = NSSet(object: item)
            left.neighbour = nil
            left.items = NSSet()
            #expect(left.willChangeCounts == ["neighbour": 2, "items": 2])
            #expect(left.didChangeCounts == ["neighbour": 2, "items": 2])
            // The writes went through, inverse included, and reading sent no change notifications.
            left.neighbour = right
            left.items = NSSet(object: item)
            #expect(left.neighbour === right)
            #expect(item.value(forKey: "shelf") as? AccessCountingShelf === left)
            #expect(left.willChangeCounts == ["neighbour": 3, "items": 3])
            #expect(right.willChangeCounts.isEmpty)
        }
    }
}
