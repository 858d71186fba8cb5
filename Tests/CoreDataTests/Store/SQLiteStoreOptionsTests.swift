@testable import CoreData
import CSQLite
import Foundation
import Testing

/// `NSSQLitePragmasOption`, `NSReadOnlyPersistentStoreOption`, `NSSQLiteManualVacuumOption` and
/// `NSSQLiteAnalyzeOption`, each seen in the store file.
@Suite struct SQLiteStoreOptionsTests {
    let directory = TemporaryDirectory()
    var storeURL: URL { directory.file("People.sqlite") }

    func container(options: [String: Any]) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "People", managedObjectModel: PeopleModel.make())
        let description = NSPersistentStoreDescription(url: storeURL)
        for (key, value) in options { description.setOption(value as? NSObject, forKey: key) }
        container.persistentStoreDescriptions = [description]
        var loadError: Error?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    func seed() throws {
        let context = try container(options: [:]).newBackgroundContext()
        try context.performAndWait {
            for index in 0..<200 { context.insertPerson("Person \(index)", nickname: String(repeating: "x", count: 500)) }
            try context.save()
        }
    }

    /// Runs one query on the store file with its own connection.
    func scalar(_ sql: String) throws -> Int64? {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(storeURL.path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return nil }
        defer { sqlite3_close_v2(handle) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { return nil }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { return nil }
        return sqlite3_column_int64(statement, 0)
    }

    @Test func pragmasAreAppliedWhenTheStoreOpens() throws {
        let container = try container(options: [NSSQLitePragmasOption: ["user_version": 7, "secure_delete": "ON"] as NSDictionary])
        _ = container
        #expect(try scalar("PRAGMA user_version") == 7)
    }

    @Test func aPragmaNameThatIsNotAnIdentifierFailsTheLoad() throws {
        #expect(throws: (any Error).self) {
            try container(options: [NSSQLitePragmasOption: ["user_version; DROP TABLE ZPERSON": 1] as NSDictionary])
        }
    }

    @Test func journalModeStaysWAL() throws {
        _ = try container(options: [NSSQLitePragmasOption: ["journal_mode": "DELETE"] as NSDictionary])
        var handle: OpaquePointer?
        sqlite3_open_v2(storeURL.path, &handle, SQLITE_OPEN_READONLY, nil)
        defer { sqlite3_close_v2(handle) }
        var statement: OpaquePointer?
        sqlite3_prepare_v2(handle, "PRAGMA journal_mode", -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        #expect(sqlite3_step(statement) == SQLITE_ROW)
        #expect(String(cString: sqlite3_column_text(statement, 0)) == "wal")
    }

    @Test func aReadOnlyStoreReadsButRefusesToSaveAndLeavesTheFileAlone() throws {
        try seed()
        let before = try Data(contentsOf: storeURL)
        let container = try container(options: [NSReadOnlyPersistentStoreOption: true as NSNumber])
        #expect(container.persistentStoreCoordinator.persistentStores.first?.isReadOnly == true)
        let context = container.newBackgroundContext()
        #expect(try context.storedPeople().count == 200)
        let error = context.performAndWait { () -> NSError? in
            context.insertPerson("Late")
            do { try context.save(); return nil } catch { return error as NSError }
        }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(try Data(contentsOf: storeURL) == before)
    }

    @Test func manualVacuumReclaimsFreePagesWhenTheStoreOpens() throws {
        try seed()
        do {
            let context = try container(options: [:]).newBackgroundContext()
            try context.performAndWait {
                for person in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")) { context.delete(person) }
                try context.save()
            }
        }
        // Checkpoint the WAL so freed pages show in the main file's free list.
        _ = try container(options: [NSSQLitePragmasOption: ["wal_checkpoint": "TRUNCATE"] as NSDictionary])
        let freeBefore = try #require(try scalar("PRAGMA freelist_count"))
        #expect(freeBefore > 0)
        _ = try container(options: [NSSQLiteManualVacuumOption: true as NSNumber])
        #expect(try scalar("PRAGMA freelist_count") == 0)
    }

    @Test func analyzeWritesQueryPlannerStatisticsWhenTheStoreOpens() throws {
        try seed()
        #expect(try scalar("SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'") == 0)
        _ = try container(options: [NSSQLiteAnalyzeOption: true as NSNumber])
        #expect(try scalar("SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'") == 1)
    }
}
