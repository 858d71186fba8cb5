/// The entities `NSPersistentHistoryTransaction` and `NSPersistentHistoryChange` describe
/// themselves with, in a model of their own: a history fetch request names one of them to say
/// whether its predicate filters transactions or changes, and lists its keys.
enum HistoryEntities {
    private static let model = NSManagedObjectModel(entities: [
        NSEntityDescription(name: "Transaction", properties: [
            NSAttributeDescription(name: "author", type: .stringAttributeType),
            NSAttributeDescription(name: "bundleID", type: .stringAttributeType),
            NSAttributeDescription(name: "contextName", type: .stringAttributeType),
            NSAttributeDescription(name: "processID", type: .stringAttributeType),
            NSAttributeDescription(name: "storeID", type: .stringAttributeType),
            NSAttributeDescription(name: "timestamp", type: .dateAttributeType),
            // An NSPersistentHistoryToken: `token > %@` selects the transactions after one.
            NSAttributeDescription(name: "token", type: .transformableAttributeType),
            NSAttributeDescription(name: "transactionNumber", type: .integer64AttributeType),
        ]),
        NSEntityDescription(name: "Change", properties: [
            NSAttributeDescription(name: "changeID", type: .integer64AttributeType),
            NSAttributeDescription(name: "changeType", type: .integer16AttributeType),
            // The changed object's NSEntityDescription, as `changedEntity == %@` passes it.
            NSAttributeDescription(name: "changedEntity", type: .transformableAttributeType),
            NSAttributeDescription(name: "changedObjectID", type: .objectIDAttributeType),
            NSAttributeDescription(name: "transactionNumber", type: .integer64AttributeType),
        ]),
    ])

    static var transaction: NSEntityDescription { model.entitiesByName["Transaction"]! }
    static var change: NSEntityDescription { model.entitiesByName["Change"]! }

    static func fetchRequest(for entity: NSEntityDescription) -> NSFetchRequest<NSFetchRequestResult> {
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: entity.name!)
        request.entity = entity
        return request
    }
}
