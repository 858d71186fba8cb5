import CoreData
#if canImport(CoreDataPostgreSQL)
import CoreDataPostgreSQL
#endif

/// The model every stress command uses, and what the reliability tests need to read the stores
/// those commands write: one library, so the program and the tests cannot drift apart.
public enum StressModel {
    public static func make() -> NSManagedObjectModel { model(migrated: false) }

    /// The next version of `make()`, for the migration kill test: items gain an optional
    /// `weight`, and `payload` is renamed `text`.
    public static func migrated() -> NSManagedObjectModel { model(migrated: true) }

    private static func model(migrated: Bool) -> NSManagedObjectModel {
        let payload = NSAttributeDescription(name: migrated ? "text" : "payload", type: .stringAttributeType)
        if migrated { payload.renamingIdentifier = "payload" }
        return NSManagedObjectModel(entities: [
            NSEntityDescription(name: "Item", properties: [
                NSAttributeDescription(name: "batch", type: .integer64AttributeType, optional: false, defaultValue: 0),
                NSAttributeDescription(name: "serial", type: .integer64AttributeType, optional: false, defaultValue: 0),
                NSAttributeDescription(name: "touches", type: .integer64AttributeType, optional: false, defaultValue: 0),
                payload,
            ] + (migrated ? [NSAttributeDescription(name: "weight", type: .doubleAttributeType)] : [])),
            NSEntityDescription(name: "Counter", properties: [
                NSAttributeDescription(name: "name", type: .stringAttributeType),
                NSAttributeDescription(name: "value", type: .integer64AttributeType, optional: false, defaultValue: 0),
                NSAttributeDescription(name: "lastBatch", type: .integer64AttributeType, optional: false, defaultValue: 0),
                NSAttributeDescription(name: "lastWriter", type: .stringAttributeType),
            ]),
        ])
    }

    /// How many counters the `interleave` writers share.
    public static let interleavedCounterCount = 6

    /// Counters every batch increments, and the one that adds up the items' touches.
    public static let batchCounterNames = ["batches-a", "batches-b", "batches-c"]
    public static let touchCounterName = "touches"

    /// A loaded container on the SQLite file at `path` (or the PostgreSQL schema, when `path` is a
    /// `postgres://` URL), or the load error.
    /// `options` go to the store description (persistent history tracking, for one).
    public static func container(path: String, model: NSManagedObjectModel = make(), options: [String: NSObject] = [:]) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Stress", managedObjectModel: model)
        let serverURL = path.hasPrefix("postgres://") ? URL(string: path) : nil
        let description = NSPersistentStoreDescription(url: serverURL ?? URL(fileURLWithPath: path))
        #if canImport(CoreDataPostgreSQL)
        if serverURL != nil { description.type = NSPostgreSQLStoreType }
        #endif
        for (key, value) in options { description.setOption(value, forKey: key) }
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    /// The payload text of item `serial` of batch `batch`, so a reader can check it exactly.
    public static func payload(batch: Int64, serial: Int64) -> String {
        "batch \(batch) item \(serial) " + String(repeating: "·", count: Int(serial % 7) * 10)
    }

    /// A payload of exactly `bytes` bytes, for saves meant not to fit on a full disk.
    public static func bigPayload(serial: Int, bytes: Int) -> String {
        let unit = "item \(serial) of a save that does not fit; "
        return String(String(repeating: unit, count: bytes / unit.utf8.count + 1).prefix(bytes))
    }
}

extension NSManagedObject {
    /// An integer attribute as Int64, whatever NSNumber width it was read back as.
    public func int64(_ key: String) -> Int64 {
        (value(forKey: key) as? NSNumber)?.int64Value ?? (value(forKey: key) as? Int64) ?? 0
    }

    public func string(_ key: String) -> String? { value(forKey: key) as? String }
}
