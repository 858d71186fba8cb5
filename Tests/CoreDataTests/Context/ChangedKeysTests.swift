@testable import CoreData
import Foundation
import Testing

/// `ChangedKeys`, an object's changed property names: bits by ordinal for the first 64
/// properties, names for the rest, one answer whichever way a key went in.
@Suite struct ChangedKeysTests {
    /// An entity of `count` string attributes named p0, p1, …
    func index(properties count: Int) -> PropertyIndex {
        let entity = NSEntityDescription()
        entity.name = "Wide"
        entity.properties = (0..<count).map { ordinal in
            let attribute = NSAttributeDescription()
            attribute.name = "p\(ordinal)"
            attribute.attributeType = .stringAttributeType
            return attribute
        }
        return entity.propertyIndex
    }

    @Test func aKeyInsertedByOrdinalIsFoundByName() {
        var keys = ChangedKeys(index: index(properties: 3))
        #expect(keys.isEmpty)
        keys.insert(ordinal: 1)
        keys.insert(ordinal: 1)
        #expect(keys.contains("p1") && !keys.contains("p0"))
        #expect(keys.names.count == 1 && !keys.isEmpty)
        #expect(keys.remove("p1") == "p1")
        #expect(keys.remove("p1") == nil)
        #expect(keys.isEmpty)
    }

    @Test func ordinalsPastSixtyFourAndKeysThatAreNoPropertiesAreKeptByName() {
        var keys = ChangedKeys(index: index(properties: 70))
        keys.insert(ordinal: 0)
        keys.insert(ordinal: 63)
        keys.insert(ordinal: 64)
        keys.insert("p69")
        keys.insert("notAProperty")
        #expect(keys.names.count == 5)
        #expect(keys.names == ["p0", "p63", "p64", "p69", "notAProperty"])
        #expect(keys.contains("p64") && keys.contains("notAProperty") && !keys.contains("p65"))
        #expect(Array(keys).prefix(2) == ["p0", "p63"], "properties with a bit come first, by ordinal")
        keys.remove("p64")
        keys.remove("p0")
        #expect(keys.names == ["p63", "p69", "notAProperty"])
    }

    @Test func setOperationsAnswerByName() {
        var keys = ChangedKeys(index: index(properties: 4))
        keys.formUnion(["p0", "p2"])
        #expect(keys.isDisjoint(with: ["p1", "p3"]))
        #expect(!keys.isDisjoint(with: ["p2"]))
        keys.replace(with: ["p3"])
        #expect(keys.names == ["p3"])
        keys.removeAll()
        #expect(keys.isEmpty && keys.names.isEmpty)
    }

    @Test func anObjectReportsTheKeysItsTypedAndKeyValueSettersChanged() throws {
        let directory = TemporaryDirectory()
        let container = try venueContainer(rows: 1, in: directory)
        let context = container.viewContext
        let venue = try context.fetch(venuesByTipsDescending(batchSize: 0))[0]
        venue.setManagedValue("Renamed", forKey: "name")
        #expect(Set(venue.changedValues().keys) == ["name"])
        venue.setValue(7, forKey: "tips")
        #expect(Set(venue.changedValues().keys) == ["name", "tips"])
        #expect(venue.isUpdated)
        try context.save()
        #expect(venue.changedValues().isEmpty && !venue.hasChanges)
    }
}
