#if canImport(CoreDataPostgreSQL)
@testable import CoreData
import CoreDataPostgreSQL
import Testing

extension PostgreSQLSuites {
    /// What a query generation does to its PostgreSQL connection, seen from the server: the
    /// behaviour every store shares is QueryGenerationTests' (run on PostgreSQL by
    /// scripts/postgres-suites).
    @Suite struct PostgreSQLQueryGenerationTests {
        private static func teamNames(in context: NSManagedObjectContext) throws -> [String] {
            try context.performAndWait {
                try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Team")).compactMap { $0.value(forKey: "teamName") as? String }.sorted()
            }
        }

        /// A container with one team saved, and its store.
        private static func storeWithOneTeam() throws -> (NSPersistentContainer, PostgreSQLStore) {
            let container = try TeamModel.container()
            TeamModel.insertTeam("Peru", zone: "South America", wins: 1, into: container.viewContext)
            try container.viewContext.save()
            let store = try #require(container.persistentStoreCoordinator.persistentStores.first as? PostgreSQLStore)
            return (container, store)
        }

        /// The server process behind the connection of the generation `context` is pinned to.
        private static func backendOfGeneration(of context: NSManagedObjectContext, in store: PostgreSQLStore) throws -> SQLValue {
            let generation = try #require(context.queryGenerationToken?.generation)
            return try #require(try generation.read(of: store) { try $0.scalar("SELECT pg_backend_pid()") })
        }

        /// The state of server process `backend` (`idle`, `idle in transaction`, …), nil once its
        /// connection is closed; asked through another coordinator, whose pool cannot lend the
        /// asker `backend` itself.
        private static func state(of backend: SQLValue, in store: PostgreSQLStore) throws -> String? {
            let observer = try TeamModel.container(url: store.url)
            let other = try #require(observer.persistentStoreCoordinator.persistentStores.first as? PostgreSQLStore)
            let state = try other.read { try $0.scalar("SELECT state FROM pg_stat_activity WHERE pid = $1", [backend]) }
            if case .text(let text)? = state { return text }
            return nil
        }

        @Test func aGenerationReadsInsideARepeatableReadTransaction() throws {
            let (container, store) = try Self.storeWithOneTeam()
            let pinned = container.newBackgroundContext()
            try pinned.setQueryGenerationFrom(.current)
            #expect(try Self.teamNames(in: pinned) == ["Peru"])
            let generation = try #require(pinned.queryGenerationToken?.generation)
            let settings = try generation.read(of: store) { session in
                try ["transaction_isolation", "transaction_read_only"].map { try session.scalar("SHOW \($0)") }
            }
            #expect(settings == [.text("repeatable read"), .text("on")])
            #expect(try Self.state(of: Self.backendOfGeneration(of: pinned, in: store), in: store) == "idle in transaction")
        }

        /// Released (no token and no context holds it), a generation rolls its transaction back
        /// and its connection goes back to the pool, or is closed.
        @Test func releasingAGenerationEndsItsTransaction() throws {
            let (container, store) = try Self.storeWithOneTeam()
            let pinned = container.newBackgroundContext()
            try pinned.setQueryGenerationFrom(.current)
            #expect(try Self.teamNames(in: pinned) == ["Peru"])
            let backend = try Self.backendOfGeneration(of: pinned, in: store)
            try pinned.setQueryGenerationFrom(nil)
            let state = try Self.state(of: backend, in: store)
            #expect(state == nil || state == "idle", "\(String(describing: state))")
        }

        /// A generation whose connection the server ended fails its reads at once with the lost
        /// connection, as every read of the store does; pinning again gives a working one.
        @Test func aGenerationWhoseConnectionDropsFailsItsReadsUntilPinnedAgain() throws {
            let (container, store) = try Self.storeWithOneTeam()
            let pinned = container.newBackgroundContext()
            try pinned.setQueryGenerationFrom(.current)
            #expect(try Self.teamNames(in: pinned) == ["Peru"])
            let backend = try Self.backendOfGeneration(of: pinned, in: store)
            _ = try store.read { try $0.scalar("SELECT pg_terminate_backend($1::int)", [backend]) }
            let started = ContinuousClock.now
            do {
                _ = try Self.teamNames(in: pinned)
                Issue.record("a read through a dropped connection succeeded")
            } catch let error as NSError {
                #expect(error.code == NSPersistentStoreOpenError)
                #expect(error.userInfo[PostgreSQLErrorKeys.connectionLost] as? Bool == true, "\(error)")
            }
            #expect(ContinuousClock.now - started < .seconds(5))
            try pinned.setQueryGenerationFrom(.current)
            #expect(try Self.teamNames(in: pinned) == ["Peru"])
        }
    }
}
#endif
