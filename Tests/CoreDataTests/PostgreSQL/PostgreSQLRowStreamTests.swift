#if canImport(CoreDataPostgreSQL)
@testable import CoreData
import CoreDataPostgreSQL
import Testing

extension PostgreSQLSuites {
    /// Rows streamed from the server to the fetching thread as they arrive, and a reader that
    /// stops in the middle of a result.
    @Suite struct PostgreSQLRowStreamTests {
        private static let teams = 50_000

        /// A store whose Team table holds `teams` rows written with SQL (quicker than a save of
        /// as many objects): "team 00001" … with wins 1 …, and the store.
        private static func storeWithManyTeams() throws -> (NSPersistentContainer, PostgreSQLStore) {
            let container = try TeamModel.container()
            let store = try #require(container.persistentStoreCoordinator.persistentStores.first as? PostgreSQLStore)
            try store.read { session in
                try session.write("""
                    INSERT INTO ZTEAM (Z_PK, Z_ENT, Z_OPT, ZTEAMNAME, ZQUALIFYINGZONE, ZWINS)
                    SELECT n, (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Team'), 1, 'team ' || lpad(n::text, 5, '0'), 'Z', n
                    FROM generate_series(1, $1::int8) AS n
                    """, [.integer(Int64(teams))])
                try session.write("UPDATE Z_PRIMARYKEY SET Z_MAX = $1 WHERE Z_NAME = 'Team'", [.integer(Int64(teams))])
            }
            return (container, store)
        }

        private static func fetchTeams(_ context: NSManagedObjectContext, _ format: String = "TRUEPREDICATE", limit: Int = 0) throws -> [NSManagedObject] {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Team")
            request.predicate = NSPredicate(format: format)
            request.sortDescriptors = [NSSortDescriptor(key: "wins", ascending: true)]
            request.returnsObjectsAsFaults = false
            request.fetchLimit = limit
            return try context.fetch(request)
        }

        @Test func aFetchOfManyRowsReturnsThemAllInOrder() throws {
            let (container, _) = try Self.storeWithManyTeams()
            let teams = try Self.fetchTeams(container.viewContext)
            #expect(teams.count == Self.teams)
            let misplaced = teams.enumerated().first { index, team in
                team.value(forKey: "wins") as? Int64 != Int64(index + 1)
                    || team.value(forKey: "teamName") as? String != String(format: "team %05d", index + 1)
            }
            #expect(misplaced == nil)
        }

        /// A row naming an entity number the model lacks, halfway through a long result: the
        /// fetch fails with the store's error, and the connection it was read on (the pool lends
        /// the last one returned) runs the next fetches as if nothing had happened.
        @Test func aRowThatFailsToDecodeMidStreamFailsTheFetchAndLeavesTheStoreUsable() throws {
            let (container, store) = try Self.storeWithManyTeams()
            try store.read { session in
                try session.write("INSERT INTO ZTEAM (Z_PK, Z_ENT, Z_OPT, ZTEAMNAME, ZQUALIFYINGZONE, ZWINS) VALUES ($1, 99, 1, 'stray', 'Z', $2)",
                                  [.integer(Int64(Self.teams + 1)), .integer(Int64(Self.teams / 2))])
            }
            let backend = try store.read { try $0.scalar("SELECT pg_backend_pid()") }
            let context = container.viewContext

            let error = try #require(throws: NSError.self) { try Self.fetchTeams(context) }
            #expect(error.code == NSPersistentStoreOperationError)
            #expect(error.localizedDescription.contains("entity number 99"))

            #expect(try store.read { try $0.scalar("SELECT pg_backend_pid()") } == backend)
            #expect(try Self.fetchTeams(context, limit: 3).compactMap { $0.value(forKey: "teamName") as? String } == ["team 00001", "team 00002", "team 00003"])
            let teams = try Self.fetchTeams(context, "teamName != 'stray'")
            #expect(teams.count == Self.teams)
            #expect(teams.last?.value(forKey: "wins") as? Int64 == Int64(Self.teams))
        }

        /// The driver's side of it: a reader that throws at the tenth row of a hundred thousand
        /// sees no further row, gets its own error back, and the same connection answers the
        /// next statement.
        @Test func aReaderThatStopsEarlyGetsItsErrorAndTheConnectionGoesOn() throws {
            struct Enough: Error {}
            let connection = try #require(PostgreSQLDriver.connector).connect(to: try PostgreSQLEndpoint(url: try PostgreSQLTestServer.freshStoreURL()))
            defer { connection.close() }
            var seen: [Int64] = []
            #expect(throws: Enough.self) {
                _ = try connection.execute("SELECT n, repeat('x', 100) FROM generate_series(1, 100000) AS n", []) { row in
                    seen.append(row.int64(at: 0))
                    if seen.count == 10 { throw Enough() }
                }
            }
            #expect(seen == Array(1...10))
            var answer: [Int64] = []
            _ = try connection.execute("SELECT 41 + $1::int8", [.integer(1)]) { answer.append($0.int64(at: 0)) }
            #expect(answer == [42])
            #expect(connection.isOpen)
        }
    }
}
#endif
