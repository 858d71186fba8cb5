import CoreData
import Foundation
import Testing

/// `NSSecureUnarchiveFromDataTransformer` runs in Apple's directions (`transformedValue` turns
/// archived data into the object, `reverseTransformedValue` archives), and a transformable
/// attribute naming it, or a subclass, saves and reads its values back.
@Suite(.serialized) struct SecureUnarchiveTransformerTests {
    let directory = TemporaryDirectory()

    @Test func transformedValueUnarchivesAndReverseArchives() throws {
        let transformer = NSSecureUnarchiveFromDataTransformer()
        let archived = try #require(transformer.reverseTransformedValue(["red", "green"] as NSArray) as? Data)
        let unarchived = transformer.transformedValue(archived) as? NSArray
        #expect(unarchived == ["red", "green"] as NSArray)
        #expect(transformer.transformedValue(["not", "data"]) == nil)
    }

    @Test func aSubclassUnarchivesItsAllowedClass() throws {
        let archived = try #require(PaletteTransformer().reverseTransformedValue(Swatch(name: "teal", code: 0x008080)) as? Data)
        #expect(PaletteTransformer().transformedValue(archived) as? Swatch == Swatch(name: "teal", code: 0x008080))
    }

    @Test func aSubclassNamedByAnAttributeSavesAndReadsBack() throws {
        ValueTransformer.setValueTransformer(PaletteTransformer(), forName: PaletteTransformer.name)
        let url = directory.file("Palette.sqlite")
        let writer = try makeContainer(model: Self.model(), storeURL: url).viewContext
        let paint = NSEntityDescription.insertNewObject(forEntityName: "Paint", into: writer)
        paint.setValue(Swatch(name: "teal", code: 0x008080), forKey: "swatch")
        paint.setValue(["matte", "washable"] as NSArray, forKey: "labels")
        try writer.save()

        let reader = try makeContainer(model: Self.model(), storeURL: url).viewContext
        let fetched = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Paint")).first)
        #expect(fetched.value(forKey: "swatch") as? Swatch == Swatch(name: "teal", code: 0x008080))
        #expect(fetched.value(forKey: "labels") as? NSArray == ["matte", "washable"] as NSArray)
    }

    /// `swatch` names the subclass; `labels` names Apple's built-in transformer.
    static func model() -> NSManagedObjectModel {
        let swatch = NSAttributeDescription(name: "swatch", type: .transformableAttributeType)
        swatch.valueTransformerName = PaletteTransformer.name.rawValue
        let labels = NSAttributeDescription(name: "labels", type: .transformableAttributeType)
        labels.valueTransformerName = NSValueTransformerName.secureUnarchiveFromDataTransformerName.rawValue
        return NSManagedObjectModel(entities: [NSEntityDescription(name: "Paint", properties: [swatch, labels])])
    }
}

/// A value class of the app's own, archived with secure coding.
final class Swatch: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let name: String
    let code: Int

    init(name: String, code: Int) {
        self.name = name
        self.code = code
    }

    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "name") else { return nil }
        self.name = name as String
        code = coder.decodeInteger(forKey: "code")
    }

    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(code, forKey: "code")
    }

    override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? Swatch else { return false }
        return other.name == name && other.code == code
    }
}

/// The subclass an app writes for its own class, as on Apple platforms.
final class PaletteTransformer: NSSecureUnarchiveFromDataTransformer {
    static let name = NSValueTransformerName("PaletteTransformer")
    override class var allowedTopLevelClasses: [AnyClass] { [Swatch.self] }
}
