import BenchSQLite
import CoreData
import Foundation

/// Store files for the cases: Apple's schema as our CoreData store creates it, filled through
/// the C API (fast, and the same bytes whichever variant reads them).
enum StoreFiles {
    /// The schema statements of a CoreData store for the Team model, read once from a store the
    /// library created, so GRDB and the floor write into an identical table (with the same
    /// Z_ENT index).
    nonisolated(unsafe) private static var schemaCache: [String]?
    nonisolated(unsafe) private static var entityCache: Int64?

    static func schema(in directory: URL) throws -> [String] {
        if let schemaCache { return schemaCache }
        let url = directory.appendingPathComponent("schema-template.sqlite")
        let container = try CoreDataStack.container(at: url)
        let database = try FloorDatabase(url)
        let statement = try database.prepare("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name LIKE 'ZTEAM%' ORDER BY type DESC")
        defer { sqlite3_finalize(statement) }
        var statements: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW { statements.append(columnString(statement, 0)) }
        entityCache = try entityNumber(database)
        withExtendedLifetime(container) {}
        schemaCache = statements
        return statements
    }

    /// Team's Z_ENT in every store of the model, written by GRDB and the floor too.
    static func templateEntityNumber(in directory: URL) throws -> Int64 {
        _ = try schema(in: directory)
        return entityCache!
    }

    /// A new empty file with the Team table only (for GRDB and the floor).
    static func emptyTable(_ url: URL, directory: URL) throws {
        let database = try FloorDatabase(url)
        for statement in try schema(in: directory) { try database.execute(statement) }
    }

    /// The entity number our store gave Team (Z_ENT).
    static func entityNumber(_ database: FloorDatabase) throws -> Int64 {
        try database.integer("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Team'")
    }

    /// Inserts teams `range` of `data` in one transaction through prepared statements, keeping
    /// Z_PRIMARYKEY in step when the file is a CoreData store.
    static func fill(_ url: URL, data: TeamData, range: Range<Int>, entity: Int64) throws {
        let database = try FloorDatabase(url)
        try database.execute("BEGIN IMMEDIATE")
        let insert = try database.prepare(TeamSQL.insert)
        defer { sqlite3_finalize(insert) }
        for index in range {
            sqlite3_bind_int64(insert, 1, Int64(index + 1))
            sqlite3_bind_int64(insert, 2, entity)
            sqlite3_bind_text(insert, 3, data.names[index], -1, sqliteTransient)
            sqlite3_bind_text(insert, 4, data.zone(index), -1, sqliteTransient)
            sqlite3_bind_int64(insert, 5, Int64(data.wins[index]))
            sqlite3_bind_double(insert, 6, data.scores[index])
            sqlite3_bind_double(insert, 7, data.dates[index])
            try database.finish(insert)
        }
        if (try? database.integer("SELECT COUNT(*) FROM sqlite_master WHERE name = 'Z_PRIMARYKEY'")) == 1 {
            try database.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(range.upperBound) WHERE Z_NAME = 'Team'")
        }
        try database.execute("COMMIT")
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// An empty CoreData store at `url`, closed again.
    static func emptyCoreDataStore(_ url: URL) throws {
        let container = try CoreDataStack.container(at: url)
        for store in container.persistentStoreCoordinator.persistentStores {
            try container.persistentStoreCoordinator.remove(store)
        }
    }

    /// A CoreData store at `url` holding the first `rows` teams, and its open container.
    static func populatedStore(_ url: URL, data: TeamData, rows: Int) throws -> NSPersistentContainer {
        let container = try CoreDataStack.container(at: url)
        let entity = try entityNumber(try FloorDatabase(url))
        try fill(url, data: data, range: 0..<rows, entity: entity)
        return container
    }
}
