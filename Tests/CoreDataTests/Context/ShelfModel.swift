import CoreData
import Foundation

/// Books with a transient `sectionIdentifier` (Apple's DateSectionTitles) and computed keys
/// (Big Nerd Ranch's `firstInitial`): the model of the key-value coding tests.
enum ShelfModel {
    static func make() -> NSManagedObjectModel {
        let sectionIdentifier = NSAttributeDescription(name: "sectionIdentifier", type: .stringAttributeType)
        sectionIdentifier.isTransient = true
        let book = NSEntityDescription(name: "Book", className: "ShelfBook", properties: [
            NSAttributeDescription(name: "title", type: .stringAttributeType),
            NSAttributeDescription(name: "timeStamp", type: .dateAttributeType),
            NSAttributeDescription(name: "updatedAt", type: .dateAttributeType),
            sectionIdentifier,
        ])
        let pamphlet = NSEntityDescription(name: "Pamphlet", properties: [
            NSAttributeDescription(name: "title", type: .stringAttributeType),
        ])
        return NSManagedObjectModel(entities: [book, pamphlet])
    }

    static func container(storeURL: URL? = nil) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Shelf", managedObjectModel: make())
        let description = storeURL.map(NSPersistentStoreDescription.init(url:)) ?? NSPersistentStoreDescription()
        if storeURL == nil { description.type = NSInMemoryStoreType }
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    /// A date in 2024 (UTC) of the given month and day.
    static func date(month: Int, day: Int = 1) -> Date {
        var components = DateComponents()
        (components.year, components.month, components.day) = (2024, month, day)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: components)!
    }
}

/// A subclass ported from Apple's and Big Nerd Ranch's code with `@objc` replaced by
/// `@KeyValueCoded` and `@NSManaged` by `@Managed`.
final class ShelfBook: NSManagedObject {
    @Managed var title: String?
    @Managed var timeStamp: Date?
    @Managed private var primitiveSectionIdentifier: String?
    @Managed private var primitiveUpdatedAt: Date?

    /// DateSectionTitles: the transient attribute's value, computed from `timeStamp` on first
    /// access and cached in the primitive value ("year * 1000 + month").
    @KeyValueCoded var sectionIdentifier: String? {
        willAccessValue(forKey: "sectionIdentifier")
        var identifier = primitiveSectionIdentifier
        didAccessValue(forKey: "sectionIdentifier")
        if identifier == nil, let timeStamp {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let parts = calendar.dateComponents([.year, .month], from: timeStamp)
            identifier = "\(parts.year! * 1000 + parts.month!)"
            primitiveSectionIdentifier = identifier
        }
        return identifier
    }

    /// Big Nerd Ranch's section key.
    @KeyValueCoded var firstInitial: String {
        title?.first.map { String($0).uppercased() } ?? "?"
    }

    /// A computed key with a setter.
    @KeyValueCoded var shoutedTitle: String? {
        get { title?.uppercased() }
        set { title = newValue?.lowercased() }
    }

    /// The last edit's time, stamped without making the object changed again.
    var updatedAt: Date? { primitiveUpdatedAt }

    func touch(at date: Date) { primitiveUpdatedAt = date }

    /// The cached section identifier goes stale when the time stamp changes.
    override func didChangeValue(forKey key: String) {
        super.didChangeValue(forKey: key)
        if key == "timeStamp" { primitiveSectionIdentifier = nil }
    }
}

extension ShelfBook {
    /// A computed key declared in an extension, privately.
    @KeyValueCoded private var titleLength: Int { title?.count ?? 0 }
}
