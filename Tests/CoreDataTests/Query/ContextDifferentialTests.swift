import CoreData
import Foundation
import Testing

/// The random predicates and sorts of `QueryCases`, run through the public API the way an app
/// runs them: `context.fetch` and `context.count(for:)` on a container holding the data set of
/// `QueryTestDatabase` as managed objects. Each case's result is compared with the plain Swift
/// reference filter and order:
/// - saved objects, context reset, on a SQLite store (the fetch runs as SQL), on the in-memory
///   and binary stores (the in-memory evaluator) and on an incremental store;
/// - the same with unsaved inserts, edits and deletes, which `includesPendingChanges` folds
///   in: as Apple documents, an object the context holds changes for is judged by its current
///   state, any other by what the store holds, and the result is ordered by current values;
/// - `count(for:)` always equals the number of objects the fetch returns.
///
/// Results are compared in order when the sort ends on the unique `serial`, as sets when it
/// does not. A disagreement prints the predicate's `canonicalFormat`, its seed and each answer.
@MainActor @Suite struct ContextDifferentialTests {
    typealias Row = QueryTestRow

    let directory = TemporaryDirectory()
    static let seeds: [UInt64] = [20_261_122, 7]
    /// 2,000 cases per store path and test keep a debug run near 20 seconds a test on two busy
    /// cores; `CONTEXT_DIFFERENTIAL_CASES=5000 swift test --filter ContextDifferential` runs more.
    static let casesPerSeed = Int(ProcessInfo.processInfo.environment["CONTEXT_DIFFERENTIAL_CASES"] ?? "") ?? 1_000
    /// Change sets per seed with unsaved changes, each on a fresh container.
    static let changeSetsPerSeed = 5

    /// What the cases of one test found.
    struct Tally {
        var cases = 0
        var unordered = 0
        var disagreements = 0
        /// Cases where judging every person by its current state would have selected
        /// differently from the documented fold (people without changes judged as stored).
        var staleByDesign = 0
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType, NSBinaryStoreType, DictionaryStore.type])
    func savedObjectsFetchWhatTheReferenceSelects(storeType: String) throws {
        var tally = Tally()
        let start = ContinuousClock.now
        for seed in Self.seeds {
            let db = try QueryTestDatabase(seed: seed)
            let data = try ManagedQueryDataSet(db.rows, storeType: storeType, storeURL: storeURL(storeType, "saved-\(seed)"))
            let people = db.rows["Person"]!
            let serials = Self.serials(people)
            var random = SplitMix64(seed: seed &* 53 &+ 3)
            for _ in 0..<Self.casesPerSeed {
                let generated = QueryCases.predicate(&random, db.rows)
                let sort = Self.sortDescriptors(&random)
                let expected = QueryCases.sorted(people.filter(generated.reference), by: sort)
                check(generated, sort, expected: expected, data, serials, &tally, "\(storeType) store, saved objects, seed \(seed)")
            }
        }
        print("ContextDifferentialTests \(storeType) saved: \(tally.cases) cases (\(tally.unordered) compared as sets), \(tally.disagreements) disagreements, \(ContinuousClock.now - start)")
        #expect(tally.cases == Self.seeds.count * Self.casesPerSeed)
        #expect(tally.disagreements == 0)
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType, NSBinaryStoreType, DictionaryStore.type])
    func pendingChangesAreFoldedIntoFetches(storeType: String) throws {
        var tally = Tally()
        let start = ContinuousClock.now
        for seed in Self.seeds {
            let db = try QueryTestDatabase(seed: seed)
            let savedPeople = Dictionary(uniqueKeysWithValues: db.rows["Person"]!.map { ($0.primaryKey, $0) })
            var random = SplitMix64(seed: seed &* 97 &+ 5)
            for changeSet in 0..<Self.changeSetsPerSeed {
                let data = try ManagedQueryDataSet(db.rows, storeType: storeType, storeURL: storeURL(storeType, "pending-\(seed)-\(changeSet)"))
                let changes = PendingQueryChanges(data, saved: db.rows, seed: random.next())
                expectContextHolds(changes, data, "\(storeType) store, seed \(seed), change set \(changeSet)")
                let people = changes.current["Person"]!
                let judged = people.map { changes.changedPeople.contains($0.primaryKey) ? $0 : savedPeople[$0.primaryKey]! }
                let serials = Self.serials(people)
                for _ in 0..<Self.casesPerSeed / Self.changeSetsPerSeed {
                    let generated = QueryCases.predicate(&random, changes.current)
                    let sort = Self.sortDescriptors(&random)
                    let selected = people.indices.filter { generated.reference(judged[$0]) }.map { people[$0] }
                    if Set(selected.map(\.primaryKey)) != Set(people.filter(generated.reference).map(\.primaryKey)) { tally.staleByDesign += 1 }
                    check(generated, sort, expected: QueryCases.sorted(selected, by: sort), data, serials, &tally,
                          "\(storeType) store, unsaved changes, seed \(seed), change set \(changeSet)") { serial in
                        Self.explain(serial, people, changes, savedPeople, data)
                    }
                }
            }
        }
        print("ContextDifferentialTests \(storeType) unsaved changes: \(tally.cases) cases (\(tally.unordered) compared as sets, \(tally.staleByDesign) where unchanged people are judged as stored), \(tally.disagreements) disagreements, \(ContinuousClock.now - start)")
        #expect(tally.cases == Self.seeds.count * Self.changeSetsPerSeed * (Self.casesPerSeed / Self.changeSetsPerSeed))
        #expect(tally.disagreements == 0)
    }

    // MARK: Support

    func storeURL(_ storeType: String, _ name: String) -> URL? {
        switch storeType {
        case NSSQLiteStoreType: directory.file("\(name).sqlite")
        case NSBinaryStoreType: directory.file("\(name).binary")
        default: nil
        }
    }

    static func serials(_ people: [Row]) -> [Int64: Int64] {
        Dictionary(uniqueKeysWithValues: people.map { ($0.primaryKey, serial(of: $0)) })
    }

    static func serial(of person: Row) -> Int64 {
        (person.values["serial"] as! NSNumber).int64Value
    }

    /// `QueryCases`' sorts, which end on the unique `serial`; one in four loses that tie-break
    /// and is then compared as a set.
    static func sortDescriptors(_ random: inout SplitMix64) -> [NSSortDescriptor] {
        var sort = QueryCases.sortDescriptors(&random)
        if random.next(below: 4) == 0 { sort.removeLast() }
        return sort
    }

    /// One person of a disagreement: its state, its values now and as saved, and what its
    /// managed object reads.
    static func explain(_ number: Int64, _ people: [Row], _ changes: PendingQueryChanges, _ saved: [Int64: Row], _ data: ManagedQueryDataSet) -> String {
        guard let person = people.first(where: { serial(of: $0) == number }) else { return "serial \(number): not in the context" }
        let state = changes.insertedPeople.contains(person.primaryKey) ? "inserted" : changes.changedPeople.contains(person.primaryKey) ? "changed" : "unchanged"
        return """
            serial \(number) (\(state)):
                  now:    \(describe(person))
                  saved:  \(saved[person.primaryKey].map(describe) ?? "-")
                  object: \(describe(data.object(for: person)))
            """
    }

    /// A person's values and related objects, for a disagreement's report.
    static func describe(_ person: Row) -> String {
        let attributes = ["name", "nick", "age", "score", "active"].map { "\($0)=\(person.values[$0].map { "\($0)" } ?? "nil")" }
        let home = (person.values["home"] as? Row).map { "home=\($0.primaryKey)(\($0.values["name"] ?? "nil"), \(($0.values["residents"] as? [Row])?.count ?? -1) residents)" } ?? "home=nil"
        let items = (person.values["items"] as? [Row] ?? []).map { "\($0.primaryKey):\($0.values["title"] ?? "nil")/\($0.values["price"] ?? "nil")/\($0.values["qty"] ?? "nil")" }.sorted()
        let groups = (person.values["groups"] as? [Row] ?? []).map(\.primaryKey).sorted()
        return (attributes + [home, "items=\(items)", "groups=\(groups)"]).joined(separator: " ")
    }

    static func describe(_ object: NSManagedObject) -> String {
        let attributes = ["name", "nick", "age", "score", "active"].map { "\($0)=\(object.value(forKey: $0).map { "\($0)" } ?? "nil")" }
        let home = (object.value(forKey: "home") as? NSManagedObject).map { "home=\($0.objectID.uriRepresentation().lastPathComponent)(\($0.value(forKey: "name") ?? "nil"), \(($0.value(forKey: "residents") as? NSSet)?.count ?? -1) residents)" } ?? "home=nil"
        let items = ((object.value(forKey: "items") as? NSSet)?.allObjects as? [NSManagedObject] ?? []).map {
            "\($0.objectID.uriRepresentation().lastPathComponent):\($0.value(forKey: "title") ?? "nil")/\($0.value(forKey: "price") ?? "nil")/\($0.value(forKey: "qty") ?? "nil")"
        }.sorted()
        let groups = ((object.value(forKey: "groups") as? NSSet)?.allObjects as? [NSManagedObject] ?? []).map { $0.objectID.uriRepresentation().lastPathComponent }.sorted()
        return (attributes + [home, "items=\(items)", "groups=\(groups)"]).joined(separator: " ")
    }

    /// The context's own view of its unsaved changes is the one the script recorded.
    func expectContextHolds(_ changes: PendingQueryChanges, _ data: ManagedQueryDataSet, _ label: String) {
        func people(_ objects: Set<NSManagedObject>) -> Set<Int64> {
            Set(objects.filter { $0.entity.name == "Person" }.compactMap { data.rowKey(of: $0) })
        }
        #expect(people(data.context.insertedObjects) == changes.insertedPeople, "\(label)")
        #expect(people(data.context.updatedObjects) == changes.changedPeople.subtracting(changes.insertedPeople), "\(label)")
        #expect(people(data.context.deletedObjects) == changes.deletedPeople, "\(label)")
    }

    /// Fetches `generated` sorted by `sort`, counts it, and compares both with `expected`.
    func check(_ generated: QueryCases.Case, _ sort: [NSSortDescriptor], expected: [Row], _ data: ManagedQueryDataSet,
               _ serials: [Int64: Int64], _ tally: inout Tally, _ label: String, explain: (Int64) -> String = { _ in "" }) {
        tally.cases += 1
        let ordered = sort.last?.key == "serial"
        if !ordered { tally.unordered += 1 }
        let predicate = NSPredicate(format: generated.format, argumentArray: data.arguments(generated.args))
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.predicate = predicate
        request.sortDescriptors = sort
        let expectedSerials = expected.map(Self.serial(of:))
        var answer: String
        do {
            let fetched = try data.context.fetch(request).map { object in data.rowKey(of: object).flatMap { serials[$0] } ?? -1 }
            let counted = try data.context.count(for: request)
            let agrees = ordered ? fetched == expectedSerials : fetched.sorted() == expectedSerials.sorted()
            if agrees && counted == fetched.count && counted == expected.count { return }
            let differing = Set(fetched).symmetricDifference(expectedSerials).sorted()
            answer = "fetch: \(fetched)\n  count(for:): \(counted)\n  " + differing.map(explain).joined(separator: "\n  ")
        } catch {
            answer = "error: \(error)"
        }
        tally.disagreements += 1
        guard tally.disagreements <= 10 else { return }
        let sorted = sort.map { "\($0.key!) \($0.ascending ? "ascending" : "descending") \($0.selector?.name ?? "")" }
        Issue.record("""
            \(label): fetch disagrees with the reference
              predicate: \(predicate.canonicalFormat)
              format: \(generated.format) arguments: \(generated.args)
              sorted by: \(sorted) (\(ordered ? "compared in order" : "compared as sets"))
              reference (serials): \(expectedSerials)
              \(answer)
            """)
    }
}
