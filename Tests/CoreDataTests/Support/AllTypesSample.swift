import CoreData
import Foundation
import Testing

/// One value of every attribute type of `TestModels.allTypes()`'s `Sample`: set on an object
/// before a save, and checked on the object a store reads back.
struct AllTypesSample {
    let text = "quote ' and \"double\", percent %, underscore _, NUL \u{0} and é 🙂"
    let when = Date(timeIntervalSinceReferenceDate: 123_456_789.987)
    let amount = Decimal(string: "12345678901234.5678901")!
    let link = URL(string: "https://example.com/a?b=c")!
    let identifier = UUID()
    let colour = RGBAColour(red: 1, green: 2, blue: 3, alpha: 255)
    let photo: Data

    /// Registers the colour's transformer, which the model names.
    init(photoBytes: Int) {
        ValueTransformer.setValueTransformer(RGBAColourTransformer(), forName: RGBAColourTransformer.name)
        photo = Data((0..<photoBytes).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    }

    func set(on sample: NSManagedObject) {
        sample.setValue(text, forKey: "text")
        sample.setValue(Int16.min, forKey: "small")
        sample.setValue(Int32.max, forKey: "medium")
        sample.setValue(Int64.max, forKey: "large")
        sample.setValue(Float(1.5), forKey: "single")
        sample.setValue(Double.pi, forKey: "double")
        sample.setValue(true, forKey: "flag")
        sample.setValue(amount, forKey: "amount")
        sample.setValue(when, forKey: "when")
        sample.setValue(link, forKey: "link")
        sample.setValue(identifier, forKey: "identifier")
        sample.setValue(photo, forKey: "photo")
        sample.setValue(RGBAColourBox(colour), forKey: "colour")
    }

    /// Every value exactly as set; the date within a microsecond (a store may keep a double).
    func expectRoundTripped(_ sample: NSManagedObject) throws {
        #expect(sample.value(forKey: "text") as? String == text)
        #expect(sample.value(forKey: "small") as? Int16 == Int16.min)
        #expect(sample.value(forKey: "medium") as? Int32 == Int32.max)
        #expect(sample.value(forKey: "large") as? Int64 == Int64.max)
        #expect(sample.value(forKey: "single") as? Float == 1.5)
        #expect(sample.value(forKey: "double") as? Double == Double.pi)
        #expect(sample.value(forKey: "flag") as? Bool == true)
        #expect(sample.value(forKey: "amount") as? Decimal == amount)
        let stored = try #require(sample.value(forKey: "when") as? Date)
        #expect(abs(stored.timeIntervalSince(when)) < 0.000_001)
        #expect(sample.value(forKey: "link") as? URL == link)
        #expect(sample.value(forKey: "identifier") as? UUID == identifier)
        #expect(sample.value(forKey: "photo") as? Data == photo)
        #expect((sample.value(forKey: "colour") as? RGBAColourBox)?.colour == colour)
    }
}
