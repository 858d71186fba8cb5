@testable import CoreData
import Foundation
import Testing

/// `PropertyIndex.attributeOrdinal(forName:)`, the first question of every `@Managed` access:
/// searched in order for an entity with few attributes, hashed for more; both give the
/// attributes' ordinals and nothing for relationships or unknown names.
@Suite struct PropertyIndexTests {
    func entity(attributes count: Int) -> NSEntityDescription {
        var properties: [NSPropertyDescription] = (0..<count).map { NSAttributeDescription(name: "attribute\($0)", type: .integer64AttributeType) }
        properties.insert(NSRelationshipDescription(name: "owner", destination: "Owner", toMany: false, inverse: "items"), at: count / 2)
        let item = NSEntityDescription(name: "Item", properties: properties)
        let owner = NSEntityDescription(name: "Owner", properties: [NSRelationshipDescription(name: "items", destination: "Item", toMany: true, inverse: "owner")])
        _ = NSManagedObjectModel(entities: [item, owner])
        return item
    }

    @Test(arguments: [0, 1, 3, 8, 9, 30])
    func attributesAreFoundByNameAndNothingElseIs(count: Int) {
        let index = entity(attributes: count).propertyIndex
        for (ordinal, property) in index.properties.enumerated() {
            let found = index.attributeOrdinal(forName: property.name)
            #expect(found == (property is NSAttributeDescription ? ordinal : nil), "\(property.name)")
        }
        #expect(index.attributeOrdinal(forName: "owner") == nil)
        #expect(index.attributeOrdinal(forName: "missing") == nil)
        #expect(index.attributeOrdinal(forName: "") == nil)
        // A long name, not a small string, is compared by its bytes.
        #expect(index.attributeOrdinal(forName: String(repeating: "attribute", count: 4)) == nil)
    }
}
