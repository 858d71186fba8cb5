import CoreData
import Foundation

/// Models of the book's apps built in code, shared by tests.
enum TestModels {
    /// DogWalk: a dog with an ordered to-many of walks (cascade), each walk pointing back.
    static func dogWalk() -> NSManagedObjectModel {
        NSManagedObjectModel(entities: [
            NSEntityDescription(name: "Dog", className: "Dog", properties: [
                NSAttributeDescription(name: "name", type: .stringAttributeType),
                NSRelationshipDescription(name: "walks", destination: "Walk", toMany: true, ordered: true, inverse: "dog", deleteRule: .cascadeDeleteRule),
            ]),
            NSEntityDescription(name: "Walk", className: "Walk", properties: [
                NSAttributeDescription(name: "date", type: .dateAttributeType),
                NSRelationshipDescription(name: "dog", destination: "Dog", inverse: "walks"),
            ]),
        ])
    }

    /// Every attribute type the book lists, on one entity.
    static func allTypes() -> NSManagedObjectModel {
        let transformable = NSAttributeDescription(name: "colour", type: .transformableAttributeType)
        transformable.valueTransformerName = "RGBAColourTransformer"
        let blob = NSAttributeDescription(name: "photo", type: .binaryDataAttributeType)
        blob.allowsExternalBinaryDataStorage = true
        return NSManagedObjectModel(entities: [
            NSEntityDescription(name: "Sample", properties: [
                NSAttributeDescription(name: "text", type: .stringAttributeType),
                NSAttributeDescription(name: "small", type: .integer16AttributeType),
                NSAttributeDescription(name: "medium", type: .integer32AttributeType),
                NSAttributeDescription(name: "large", type: .integer64AttributeType),
                NSAttributeDescription(name: "single", type: .floatAttributeType),
                NSAttributeDescription(name: "double", type: .doubleAttributeType),
                NSAttributeDescription(name: "flag", type: .booleanAttributeType),
                NSAttributeDescription(name: "amount", type: .decimalAttributeType),
                NSAttributeDescription(name: "when", type: .dateAttributeType),
                NSAttributeDescription(name: "link", type: .URIAttributeType),
                NSAttributeDescription(name: "identifier", type: .UUIDAttributeType),
                blob,
                transformable,
            ]),
        ])
    }
}

final class Dog: NSManagedObject {
    @Managed var name: String?
    @Managed var walks: NSOrderedSet?
}

final class Walk: NSManagedObject {
    @Managed var date: Date?
    @Managed var dog: Dog?
}

/// A colour stored as four bytes, the way the BowTies chapter stores its tint colour.
struct RGBAColour: Equatable {
    var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8
}

final class RGBAColourBox: NSObject {
    let colour: RGBAColour
    init(_ colour: RGBAColour) { self.colour = colour }
    override func isEqual(_ object: Any?) -> Bool { (object as? RGBAColourBox)?.colour == colour }
}

final class RGBAColourTransformer: ValueTransformer {
    static let name = NSValueTransformerName("RGBAColourTransformer")

    override func transformedValue(_ value: Any?) -> Any? {
        guard let colour = (value as? RGBAColourBox)?.colour else { return nil }
        return Data([colour.red, colour.green, colour.blue, colour.alpha])
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data, data.count == 4 else { return nil }
        return RGBAColourBox(RGBAColour(red: data[0], green: data[1], blue: data[2], alpha: data[3]))
    }
}
