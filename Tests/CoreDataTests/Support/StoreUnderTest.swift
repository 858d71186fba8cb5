import CoreData
import Testing
import Foundation
#if canImport(CoreDataPostgreSQL)
import CoreDataPostgreSQL
#endif

/// Where the suites' SQLite stores really live. Normally in SQLite files; with
/// `PORTABLE_CORE_DATA_TEST_STORE=postgresql` (scripts/postgres-suites runs the controller,
/// context and fetching suites so) in PostgreSQL schemas of the test server instead, one schema
/// per file path, so that a test that opens its file again opens the same schema.
enum StoreUnderTest {
    static let isPostgreSQL = ProcessInfo.processInfo.environment["PORTABLE_CORE_DATA_TEST_STORE"] == "postgresql"

    /// The description of a store of `type` at `url`: as asked, or its PostgreSQL stand-in.
    static func description(url: URL?, type: String) throws -> NSPersistentStoreDescription {
        let description = url.map(NSPersistentStoreDescription.init(url:)) ?? NSPersistentStoreDescription()
        description.type = type
        guard isPostgreSQL, type == NSSQLiteStoreType, let url else { return description }
        #if canImport(CoreDataPostgreSQL)
        description.url = try PostgreSQLTestServer.storeURL(schema: schemaName(forFileAt: url))
        description.type = NSPostgreSQLStoreType
        return description
        #else
        throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "PORTABLE_CORE_DATA_TEST_STORE=postgresql, but this build has no PostgreSQL store"])
        #endif
    }

    /// "f_" and the FNV-1a hash of the file's path: the same path, the same schema.
    static func schemaName(forFileAt url: URL) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.standardizedFileURL.path.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "f_" + String(hash, radix: 16)
    }
}

extension Trait where Self == ConditionTrait {
    /// For a test of what only the SQLite store has or does (its file, its internals, query
    /// generations): when the suites run on PostgreSQL it is reported as skipped, with `reason`.
    static func sqliteOnly(_ reason: Comment) -> Self {
        .disabled(if: StoreUnderTest.isPostgreSQL, reason)
    }
}
