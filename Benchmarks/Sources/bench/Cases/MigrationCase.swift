import CoreData
import GRDB

extension BenchmarkCase {
    /// Opening a store of last version's model with this version's: one attribute added, one
    /// renamed. Each repetition migrates a fresh copy of a `--memory-rows` store.
    static func migration(_ options: Options) -> BenchmarkCase {
        BenchmarkCase(
            id: "migration",
            title: "lightweight migration, \(options.memoryRows) rows",
            explanation: "Opens a store of \(options.memoryRows) teams with a model that adds `country` and renames `name` to `title` (renaming identifier), so lightweight migration runs, and closes it; by hand, the file is opened, `ALTER TABLE ZTEAM ADD COLUMN ZCOUNTRY` and `RENAME COLUMN ZNAME TO ZTITLE` run in one transaction and the file is closed (the floor), or a GRDB `DatabaseMigrator` migration runs on a queue opened and closed the same way. Every variant times the whole open–change–close, since the store cannot migrate without opening the file nor release it without closing (which checkpoints the WAL the change wrote); a reference times the two `ALTER`s alone on a connection opened beforehand, as this case did until 2026-11-26. The memory variant is the resident-set growth across the migrating open; another reference opens and closes the same store with its own model (no migration), so the difference is what migrating adds.",
            targets: [
                Target(statement: "migration within 2x of the same change by hand in sqlite3", subject: "CoreData", base: "C sqlite3", limit: 2),
                Target(statement: "a migrating open against the same open without migration", subject: "CoreData", base: "CoreData open without migration",
                       limit: 1, informational: true),
                Target(statement: "a migrating open against the ALTERs alone on a file opened beforehand", subject: "CoreData",
                       base: "C sqlite3, ALTERs alone on an open file", limit: 2, informational: true),
            ]
        ) { env in
            let template = env.storeURL("migration-template")
            try closed(StoreFiles.populatedStore(template, data: TeamData(count: options.memoryRows), rows: options.memoryRows))
            func copy() throws -> URL {
                let url = env.storeURL("migration")
                try FileManager.default.copyItem(at: template, to: url)
                // Flushed untimed: otherwise the first fsync of a timed run (the checkpoint
                // when the migrated store closes) also writes out the whole fresh copy, a cost
                // of this benchmark's setup that grows with the rows.
                let handle = try FileHandle(forUpdating: url)
                try handle.synchronize()
                try handle.close()
                return url
            }
            return [
                Variant(label: "CoreData", role: .coreData) {
                    let url = try copy()
                    return try Stopwatch.milliseconds { try closed(CoreDataStack.container(at: url, model: migratedModel)) }
                },
                Variant(label: "CoreData open without migration", role: .reference) {
                    let url = try copy()
                    return try Stopwatch.milliseconds { try closed(CoreDataStack.container(at: url)) }
                },
                Variant(label: "CoreData resident growth", role: .reference, unit: .mebibytes) {
                    let url = try copy()
                    let before = ResidentSet.bytes()
                    try closed(CoreDataStack.container(at: url, model: migratedModel))
                    return Double(ResidentSet.bytes() - before) / 1_048_576
                },
                Variant(label: "GRDB migrator", role: .grdbRecords) {
                    let url = try copy()
                    var migrator = DatabaseMigrator()
                    migrator.registerMigration("country and title") { db in
                        try db.alter(table: "ZTEAM") { table in
                            table.add(column: "ZCOUNTRY", .text)
                            table.rename(column: "ZNAME", to: "ZTITLE")
                        }
                    }
                    return try Stopwatch.milliseconds {
                        let queue = try GRDBStack.queue(url)
                        try migrator.migrate(queue)
                        try queue.close()
                    }
                },
                Variant(label: "C sqlite3", role: .floor) {
                    let url = try copy()
                    return try Stopwatch.milliseconds {
                        let floor = try FloorDatabase(url)
                        try floor.execute(alterations)
                    }
                },
                Variant(label: "C sqlite3, ALTERs alone on an open file", role: .reference) {
                    let floor = try FloorDatabase(try copy())
                    return try Stopwatch.milliseconds { try floor.execute(alterations) }
                },
            ]
        }
    }

    /// The change by hand, in one transaction.
    private static let alterations =
        "BEGIN IMMEDIATE; ALTER TABLE ZTEAM ADD COLUMN ZCOUNTRY VARCHAR; ALTER TABLE ZTEAM RENAME COLUMN ZNAME TO ZTITLE; COMMIT"

    /// The Team model's next version.
    private static let migratedModel: NSManagedObjectModel = {
        let title = NSAttributeDescription(name: "title", type: .stringAttributeType)
        title.renamingIdentifier = "name"
        return NSManagedObjectModel(entities: [
            NSEntityDescription(name: "Team", properties: [
                title,
                NSAttributeDescription(name: "zone", type: .stringAttributeType),
                NSAttributeDescription(name: "wins", type: .integer32AttributeType, optional: false, defaultValue: 0),
                NSAttributeDescription(name: "score", type: .doubleAttributeType, optional: false, defaultValue: 0),
                NSAttributeDescription(name: "date", type: .dateAttributeType),
                NSAttributeDescription(name: "country", type: .stringAttributeType),
            ]),
        ])
    }()
}

/// Closes a container's stores, so its file can be copied or opened by another model.
private func closed(_ container: NSPersistentContainer) throws {
    for store in container.persistentStoreCoordinator.persistentStores {
        try container.persistentStoreCoordinator.remove(store)
    }
}
