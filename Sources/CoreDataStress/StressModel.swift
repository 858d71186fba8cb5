import CoreData

/// The model every stress command uses; `Tests/CoreDataTests/Reliability/Support` declares the
/// same one, so the tests can open the stores these commands write.
enum StressModel {
    static func make() -> NSManagedObjectModel {
        NSManagedObjectModel(entities: [
            NSEntityDescription(name: "Item", properties: [
                NSAttributeDescription(name: "batch", type: .integer64AttributeType, optional: false, defaultValue: 0),
                NSAttributeDescription(name: "serial", type: .integer64AttributeType, optional: false, defaultValue: 0),
                NSAttributeDescription(name: "touches", type: .integer64AttributeType, optional: false, defaultValue: 0),
                NSAttributeDescription(name: "payload", type: .stringAttributeType),
            ]),
            NSEntityDescription(name: "Counter", properties: [
                NSAttributeDescription(name: "name", type: .stringAttributeType),
                NSAttributeDescription(name: "value", type: .integer64AttributeType, optional: false, defaultValue: 0),
                NSAttributeDescription(name: "lastBatch", type: .integer64AttributeType, optional: false, defaultValue: 0),
                NSAttributeDescription(name: "lastWriter", type: .stringAttributeType),
            ]),
        ])
    }

    /// A loaded container on the SQLite file at `path`, or the load error.
    static func container(path: String) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Stress", managedObjectModel: make())
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: URL(fileURLWithPath: path))]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    /// The payload text of item `serial` of batch `batch`, so a reader can check it exactly.
    static func payload(batch: Int64, serial: Int64) -> String {
        "batch \(batch) item \(serial) " + String(repeating: "·", count: Int(serial % 7) * 10)
    }
}

extension NSManagedObject {
    /// An integer attribute as Int64, whatever NSNumber width it was read back as.
    func int64(_ key: String) -> Int64 {
        (value(forKey: key) as? NSNumber)?.int64Value ?? (value(forKey: key) as? Int64) ?? 0
    }
}
