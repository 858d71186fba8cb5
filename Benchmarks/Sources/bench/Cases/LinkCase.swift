import CoreData

/// An owner and its members: the model of the to-many linking case.
private enum LinkModel {
    static let model = NSManagedObjectModel(entities: [
        NSEntityDescription(name: "Owner", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSRelationshipDescription(name: "members", destination: "Member", toMany: true, inverse: "owner"),
        ]),
        NSEntityDescription(name: "Member", properties: [
            NSAttributeDescription(name: "serial", type: .integer64AttributeType, optional: false, defaultValue: 0),
            NSRelationshipDescription(name: "owner", destination: "Owner", inverse: "members"),
        ]),
    ])

    /// Milliseconds to insert `count` members and link each to one owner (the inverse to-many
    /// grows by one member per link), unsaved, in a fresh context on a new store file.
    static func link(_ count: Int, at url: URL) throws -> Double {
        let context = CoreDataStack.context(try CoreDataStack.container(at: url, model: model))
        let owner = NSEntityDescription.insertNewObject(forEntityName: "Owner", into: context)
        let members = (0..<count).map { serial in
            let member = NSEntityDescription.insertNewObject(forEntityName: "Member", into: context)
            member.setValue(Int64(serial), forKey: "serial")
            return member
        }
        let elapsed = Stopwatch.milliseconds {
            for member in members { member.setValue(owner, forKey: "owner") }
        }
        precondition((owner.value(forKey: "members") as? NSSet)?.count == count, "every member linked")
        drainMainQueue()
        return elapsed
    }
}

extension BenchmarkCase {
    /// Linking twice as many members to one owner should take about twice as long.
    nonisolated(unsafe) static let linkToMany = BenchmarkCase(
        id: "link-to-many",
        title: "link members to one owner, n vs n/2",
        explanation: "Sets each of n new members' to-one owner to one object (the owner's inverse to-many grows one member a link), n = min(rows, 32,000), against n/2: linear growth is a ratio near 2.",
        targets: [
            Target(statement: "linking n members within 2.2x of linking n/2 (linear)", subject: "CoreData link n", base: "CoreData link n/2", limit: 2.2),
        ]
    ) { env in
        let count = min(env.rows, 32_000)
        return [
            Variant(label: "CoreData link n", role: .coreData) { try LinkModel.link(count, at: env.storeURL("link-full")) },
            Variant(label: "CoreData link n/2", role: .reference) { try LinkModel.link(count / 2, at: env.storeURL("link-half")) },
        ]
    }
}
