#if canImport(CoreDataPostgreSQL)
@testable import CoreData
import CoreDataPostgreSQL
import Testing

extension PostgreSQLSuites {
    /// Reads and the writes of saves run on statements each connection prepares once per shape.
    /// One context reading or saving after another borrows the same pooled connection each time
    /// (the pool lends the one given back last), so the server's `pg_prepared_statements` seen
    /// through `store.read` is the fetches' and saves' connection's.
    @Suite struct PostgreSQLPreparedStatementTests {
        private static func storeWithTeams() throws -> (NSPersistentContainer, PostgreSQLStore) {
            let container = try TeamModel.container()
            for (index, name) in ["Brazil", "Ghana", "Japan", "Peru"].enumerated() {
                TeamModel.insertTeam(name, zone: "Z", wins: Int64(index), into: container.viewContext)
            }
            try container.viewContext.save()
            let store = try #require(container.persistentStoreCoordinator.persistentStores.first as? PostgreSQLStore)
            return (container, store)
        }

        private static func teamNames(_ context: NSManagedObjectContext, _ format: String, _ arguments: [Any] = []) throws -> [String] {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Team")
            request.predicate = NSPredicate(format: format, argumentArray: arguments)
            request.sortDescriptors = [NSSortDescriptor(key: "teamName", ascending: true)]
            return try context.fetch(request).map { $0.value(forKey: "teamName") as? String ?? "" }
        }

        /// The statements prepared on the connection `store.read` borrows whose text contains
        /// `fragment`, with how many times each ran.
        private static func prepared(containing fragment: String, in store: PostgreSQLStore) throws -> [Int64] {
            try store.read { session in
                var runs: [Int64] = []
                try session.query("SELECT generic_plans + custom_plans FROM pg_prepared_statements WHERE strpos(statement, $1) > 0",
                                  [.text(fragment)]) { runs.append($0.int64(at: 0)) }
                return runs
            }
        }

        @Test func aFetchRunManyTimesIsPreparedOnce() throws {
            let (container, store) = try Self.storeWithTeams()
            for _ in 0..<50 {
                #expect(try Self.teamNames(container.viewContext, "wins >= %@", [2]) == ["Japan", "Peru"])
            }
            #expect(try Self.prepared(containing: "ZWINS >=", in: store) == [50])
        }

        /// A save writes each table's rows with one statement (a record set bound as one
        /// value), prepared by the first save and run again by the next; the transaction's
        /// `BEGIN` and `COMMIT`, bound to nothing, are not kept.
        @Test func aSavesWritesArePreparedOnce() throws {
            let (container, store) = try Self.storeWithTeams()
            let context = container.viewContext
            let peru = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Team"))
                .first { $0.value(forKey: "teamName") as? String == "Peru" })
            for round in 1...5 {
                TeamModel.insertTeam("Team \(round)", zone: "Z", wins: 0, into: context)
                peru.setValue(Int64(10 + round), forKey: "wins")
                try context.save()
            }
            #expect(try Self.prepared(containing: "INSERT INTO ZTEAM", in: store) == [6])
            #expect(try Self.prepared(containing: "UPDATE ZTEAM SET", in: store) == [5])
            #expect(try Self.prepared(containing: "COMMIT", in: store).isEmpty)
            #expect(try Self.teamNames(context, "wins > 10") == ["Peru"])
        }

        /// Batch requests answer how many rows they changed, which postgres-nio reads only from
        /// statements it does not prepare; run again, they still count, and a save after them
        /// still finds its version conflict.
        @Test func batchRequestsCountTheRowsTheyChange() throws {
            let (container, _) = try Self.storeWithTeams()
            let context = container.viewContext
            let ghana = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Team"))
                .first { $0.value(forKey: "teamName") as? String == "Ghana" })
            for name in ["Ana", "Bo", "Cy"] {
                let player = NSEntityDescription.insertNewObject(forEntityName: "Player", into: context)
                player.setValue(name, forKey: "name")
            }
            try context.save()
            for _ in 0..<2 {
                let update = NSBatchUpdateRequest(entityName: "Team")
                update.predicate = NSPredicate(format: "wins <= %@", NSNumber(value: 1))
                update.propertiesToUpdate = ["qualifyingZone": "Q"]
                update.resultType = .updatedObjectsCountResultType
                #expect((try context.execute(update) as? NSBatchUpdateResult)?.result as? Int == 2)
            }
            let players = NSFetchRequest<NSFetchRequestResult>(entityName: "Player")
            players.predicate = NSPredicate(format: "name != %@", "Cy")
            let delete = NSBatchDeleteRequest(fetchRequest: players)
            delete.resultType = .resultTypeCount
            #expect((try context.execute(delete) as? NSBatchDeleteResult)?.result as? Int == 2)
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Player")) == 1)
            // The batch update moved Ghana's version past the one this context holds.
            ghana.setValue(Int64(9), forKey: "wins")
            let conflict = #expect(throws: NSError.self) { try context.save() }
            #expect(conflict?.code == NSManagedObjectMergeError)
        }

        /// A column changing type changes the rows of a statement prepared before; PostgreSQL
        /// refuses to run it (0A000) until it is prepared again.
        @Test func aFetchStillRunsAfterAMigrationChangedItsTable() throws {
            let (container, store) = try Self.storeWithTeams()
            #expect(try Self.teamNames(container.viewContext, "wins >= %@", [2]) == ["Japan", "Peru"])
            try store.read { session in try session.write("ALTER TABLE ZTEAM ALTER COLUMN ZWINS TYPE NUMERIC") }
            #expect(try Self.teamNames(container.viewContext, "wins >= %@", [2]) == ["Japan", "Peru"])
            #expect(try Self.prepared(containing: "ZWINS >=", in: store) == [1])
        }

        @Test func aStatementTheServerRefusedRunsOnceItCan() throws {
            let (_, store) = try Self.storeWithTeams()
            let count = "SELECT count(*) FROM ZLATER WHERE ZVALUE > $1"
            #expect(throws: (any Error).self) { try store.read { session in try session.scalar(count, [.integer(0)]) } }
            let answer = try store.read { session in
                try session.write("CREATE TABLE ZLATER (ZVALUE BIGINT)")
                try session.write("INSERT INTO ZLATER VALUES (1), (2)")
                return try session.scalar(count, [.integer(0)])
            }
            #expect(answer == .integer(2))
        }

        /// A value compared with a column of another type is read as the value's type, as the
        /// unnamed statements read it, whatever type it was first prepared with.
        @Test func boundValuesKeepTheirOwnTypes() throws {
            let (container, _) = try Self.storeWithTeams()
            #expect(try Self.teamNames(container.viewContext, "wins > %@", [1.5]) == ["Japan", "Peru"])
            #expect(try Self.teamNames(container.viewContext, "wins > %@", [1]) == ["Japan", "Peru"])
            #expect(try Self.teamNames(container.viewContext, "teamName == %@", ["Ghana"]) == ["Ghana"])
        }

        @Test func aConnectionKeepsABoundedNumberOfStatements() throws {
            let (_, store) = try Self.storeWithTeams()
            let shapes = PostgresNIOConnector.preparedStatementsPerConnection + 20
            let sums = try store.read { session in
                try (0..<shapes).map { shape in try session.scalar("SELECT $1::int8 + \(shape)", [.integer(1)]) }
            }
            #expect(sums == (0..<shapes).map { SQLValue.integer(Int64($0) + 1) })
            let kept = try Self.prepared(containing: "", in: store)
            #expect(kept.count == PostgresNIOConnector.preparedStatementsPerConnection)
        }
    }
}
#endif
