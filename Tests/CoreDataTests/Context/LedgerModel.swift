import CoreData
import Foundation

/// A ledger entry: stored `title` and `amount`, a transient `note`, and a `createdBy` that
/// `awakeFromInsert()` fills through the primitive setter, as Apple's documentation shows.
final class LedgerEntry: NSManagedObject {
    @Managed var title: String?
    @Managed var amount: Int64
    @Managed var note: String?
    @Managed var createdBy: String?

    override func awakeFromInsert() {
        super.awakeFromInsert()
        setPrimitiveValue("awakeFromInsert", forKey: "createdBy")
    }
}

enum LedgerModel {
    static func make() -> NSManagedObjectModel {
        let note = NSAttributeDescription(name: "note", type: .stringAttributeType)
        note.isTransient = true
        return NSManagedObjectModel(entities: [
            NSEntityDescription(name: "LedgerEntry", className: "LedgerEntry", properties: [
                NSAttributeDescription(name: "title", type: .stringAttributeType),
                NSAttributeDescription(name: "amount", type: .integer64AttributeType),
                note,
                NSAttributeDescription(name: "createdBy", type: .stringAttributeType),
            ]),
        ])
    }

    /// A container on a fresh SQLite file in `directory`.
    static func container(in directory: TemporaryDirectory, options: [String: Any] = [:]) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Ledger", managedObjectModel: make())
        let description = NSPersistentStoreDescription(url: directory.file("Ledger.sqlite"))
        for (key, value) in options { description.setOption(value as? NSObject, forKey: key) }
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }
}
