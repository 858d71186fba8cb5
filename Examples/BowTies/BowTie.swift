import CoreData

/// The chapter's generated subclass, with `@Managed` in place of `@NSManaged`.
final class BowTie: NSManagedObject {
    @Managed var name: String?
    @Managed var isFavorite: Bool
    @Managed var lastWorn: Date?
    @Managed var rating: Double
    @Managed var searchKey: String?
    @Managed var timesWorn: Int32
    @Managed var id: UUID?
    @Managed var url: URL?
    @Managed var photoData: Data?
    @Managed var tintColor: Color?

    @nonobjc class func fetchRequest() -> NSFetchRequest<BowTie> {
        NSFetchRequest<BowTie>(entityName: "BowTie")
    }
}

/// A colour: what `UIColor` is in the chapter, stored through `ColorAttributeTransformer`.
final class Color: NSObject {
    let red: UInt8, green: UInt8, blue: UInt8

    init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    var hex: String { String(format: "#%02X%02X%02X", red, green, blue) }
}

/// Stores a `Color` as three bytes; registered under the name the model gives the attribute.
final class ColorAttributeTransformer: ValueTransformer {
    static let name = NSValueTransformerName("ColorAttributeTransformer")

    static func register() {
        ValueTransformer.setValueTransformer(ColorAttributeTransformer(), forName: name)
    }

    override func transformedValue(_ value: Any?) -> Any? {
        guard let color = value as? Color else { return nil }
        return Data([color.red, color.green, color.blue])
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data, data.count == 3 else { return nil }
        return Color(red: data[0], green: data[1], blue: data[2])
    }
}
