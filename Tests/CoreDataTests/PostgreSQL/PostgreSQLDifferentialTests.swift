#if canImport(CoreDataPostgreSQL)
import CoreDataPostgreSQL
import Testing

extension PostgreSQLSuites {
    /// `ContextDifferentialTests` on PostgreSQL: 10,000 random predicates and sorts compiled to
    /// PostgreSQL's dialect, run through `context.fetch` and `count(for:)` on a real server, each
    /// compared with the Swift reference the SQLite store agrees with.
    ///
    /// PostgreSQL's text cannot hold U+0000 (a save or a bound constant with one is refused, 22021;
    /// README), so the data set's one such string is stored with U+0001 in its place, and cases
    /// whose constants hold U+0000 are counted and left out.
    @MainActor @Suite struct PostgreSQLDifferentialTests {
        @Test func savedObjectsFetchWhatTheReferenceSelects() throws {
            let differential = ContextDifferentialTests()
            var tally = ContextDifferentialTests.Tally()
            var withNUL = 0
            let casesPerSeed = 5_000
            for seed in ContextDifferentialTests.seeds {
                let db = try QueryTestDatabase(seed: seed)
                for row in db.rows.values.joined() {
                    for (key, value) in row.values {
                        if let text = value as? String, text.contains("\u{0}") { row.values[key] = text.replacingOccurrences(of: "\u{0}", with: "\u{1}") }
                    }
                }
                let data = try ManagedQueryDataSet(db.rows, storeType: NSPostgreSQLStoreType, storeURL: try PostgreSQLTestServer.freshStoreURL())
                let people = db.rows["Person"]!
                let serials = ContextDifferentialTests.serials(people)
                var random = SplitMix64(seed: seed &* 53 &+ 3)
                var ran = 0
                while ran < casesPerSeed {
                    let generated = QueryCases.predicate(&random, db.rows)
                    let sort = ContextDifferentialTests.sortDescriptors(&random)
                    if generated.format.contains("\u{0}") || generated.args.contains(where: Self.holdsNUL) {
                        withNUL += 1
                        continue
                    }
                    let expected = QueryCases.sorted(people.filter(generated.reference), by: sort)
                    differential.check(generated, sort, expected: expected, data, serials, &tally, "PostgreSQL store, seed \(seed)")
                    ran += 1
                }
            }
            print("PostgreSQLDifferentialTests: \(tally.cases) cases (\(tally.unordered) compared as sets), \(tally.disagreements) disagreements; \(withNUL) cases with U+0000 left out")
            #expect(tally.cases == ContextDifferentialTests.seeds.count * casesPerSeed)
            #expect(tally.disagreements == 0)
        }

        static func holdsNUL(_ value: Any) -> Bool {
            if let text = value as? String { return text.contains("\u{0}") }
            if let list = value as? [Any] { return list.contains(where: holdsNUL) }
            return false
        }
    }
}
#endif
